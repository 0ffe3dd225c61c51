import { useTranslate } from 'react-admin';
import { CUSTOMER_GUARD_LIMITS, LOSS_GUARD_RESUMES, customerGuardsMessages, type CustomerGuards } from '../../../contract/api/guards';
import { useAppDataProvider } from '../../dataProvider';
import { GuardsCard, type GuardField } from './GuardsCard';

type CustomerGuard = keyof CustomerGuards;
type Limit = keyof typeof CUSTOMER_GUARD_LIMITS;
const LIMITS: Limit[] = ['maxNotionalUsdt', 'maxLeverage', 'maxOpenPositions', 'minFreeBalanceUsdt', 'dailyLossLimitUsdt', 'maxDrawdownPct'];

/** A customer's guards on their profile: every entry for them is checked against these before it is sent. */
export function CustomerGuardsCard({ customerId }: { customerId: number }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const fields: Array<GuardField<CustomerGuard, CustomerGuards>> = LIMITS.map((source) => ({
    source,
    label: translate(`app.guards.fields.${source}`),
    help: translate(`app.guards.help.${source}`),
    max: CUSTOMER_GUARD_LIMITS[source],
    message: customerGuardsMessages[source],
  }));
  fields.push({
    source: 'lossGuardResume',
    label: translate('app.guards.fields.lossGuardResume'),
    help: translate('app.guards.help.lossGuardResume'),
    choices: LOSS_GUARD_RESUMES.map((id) => ({ id, name: translate(`app.guards.resume.${id}`) })),
  });
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
