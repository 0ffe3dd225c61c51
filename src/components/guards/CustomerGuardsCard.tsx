import { useTranslate } from 'react-admin';
import { CUSTOMER_GUARD_LIMITS, customerGuardsMessages, type CustomerGuards } from '../../../contract/api/guards';
import { useAppDataProvider } from '../../dataProvider';
import { GuardsCard, type GuardField } from './GuardsCard';

type CustomerGuard = keyof CustomerGuards;
const GUARDS: CustomerGuard[] = ['maxNotionalUsdt', 'maxLeverage', 'maxOpenPositions', 'minFreeBalanceUsdt'];

/** A customer's guards on their profile: every entry for them is checked against these before it is sent. */
export function CustomerGuardsCard({ customerId }: { customerId: number }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const fields: Array<GuardField<CustomerGuard, CustomerGuards>> = GUARDS.map((source) => ({
    source,
    label: translate(`app.guards.fields.${source}`),
    help: translate(`app.guards.help.${source}`),
    max: CUSTOMER_GUARD_LIMITS[source],
    message: customerGuardsMessages[source],
  }));
  return (
    <GuardsCard<CustomerGuard, CustomerGuards>
      testId="customer-guards"
      resource="customers"
      queryKey={['customerGuards', customerId]}
      read={() => dataProvider.customerGuards(customerId)}
      save={(values) => dataProvider.setCustomerGuards(customerId, values)}
      fields={fields}
    />
  );
}
