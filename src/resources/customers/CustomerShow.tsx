import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { ShowBase, useShowContext, useTranslate } from 'react-admin';
import type { Customer } from '../../../contract/api/customer';
import { StatusChip } from '../../components/StatusChip';
import { ResultsCard } from '../../components/results/ResultsCard';
import { CustomerGuardsCard } from '../../components/guards/CustomerGuardsCard';
import { PauseSwitchCard } from '../../components/switches/PauseSwitchCard';
import { UsdtAmount } from '../../components/UsdtAmount';
import { PageTitle } from '../../components/profile/PageTitle';
import { PasswordResetDialog } from '../../components/profile/PasswordResetDialog';
import { PersonActions } from '../../components/profile/PersonActions';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { StatCard } from '../../components/profile/StatCard';
import { useAccountActions } from '../../components/profile/useAccountActions';
import { linkTo } from '../../pages/routes';
import { customerFields } from './customerFields';

function CustomerProfile({ customer }: { customer: Customer }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const { actions, password } = useAccountActions('customers', customer, linkTo('customers'));
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.profile')}
        home={linkTo('customers')}
        actions={
          <>
            <StatusChip status={customer.account.status} />
            <PersonActions actions={actions} />
          </>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <StatCard label={t('fields.currentBalance')} value={<UsdtAmount value={customer.currentWalletAmount} />} />
        <StatCard label={t('fields.totalTransaction')} value={customer.totalTransactions} />
      </Stack>
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={customerFields(customer).map((field) => ({ label: t(`fields.${field.key}`), value: field.value }))} />
        </CardContent>
      </Card>
      <PauseSwitchCard target={{ scope: 'customer', id: customer.id }} />
      <CustomerGuardsCard customerId={customer.id} />
      <ResultsCard customerId={customer.id} />
      <PasswordResetDialog {...password} />
    </Stack>
  );
}

function CustomerProfileView() {
  const { record, isPending } = useShowContext<Customer>();
  if (isPending) return <LinearProgress />;
  return record ? <CustomerProfile customer={record} /> : null;
}

/** Customer profile (/customer/{id}): balance and transaction cards, the read-only profile, and the actions. */
export function CustomerShow() {
  return (
    <ShowBase resource="customers">
      <CustomerProfileView />
    </ShowBase>
  );
}
