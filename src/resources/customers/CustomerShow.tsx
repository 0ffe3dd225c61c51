import LinearProgress from '@mui/material/LinearProgress';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDelete, useGetOne, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import type { Customer } from '../../../contract/api/customer';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { UsdtAmount } from '../../components/UsdtAmount';
import { linkTo } from '../../pages/routes';
import { AccountActionsMenu } from '../common/AccountActionsMenu';
import { PageTitle } from '../common/PageTitle';
import { ReadOnlyFields } from '../common/ReadOnlyFields';
import { StatCard } from '../common/StatCard';
import { StatusChip } from '../common/StatusChip';
import { useCan } from '../common/useCan';
import { customerFields } from './customerFields';

/** Customer profile: balance and transaction cards, read-only profile, and the action menu. */
export function CustomerShow() {
  const { customerId } = useParams();
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const navigate = useNavigate();
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  const { data: customer, isPending, refetch } = useGetOne<Customer>('customers', { id: Number(customerId) });
  const [deleteOne] = useDelete<Customer>();
  const allowed = { block: useCan('customers', 'block'), delete: useCan('customers', 'delete'), password: useCan('customers', 'password') };
  if (isPending) return <LinearProgress />;
  if (!customer) return null;
  const remove = async () => {
    await deleteOne('customers', { id: customer.id, previousData: customer }, { returnPromise: true });
    setDeleted(true);
    setResult({ type: 'success', message: t('notifications.deleted') });
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.profile')}
        home={linkTo('customers')}
        actions={
          <>
            <StatusChip status={customer.account.status} label={t(`statuses.${customer.account.status}`)} />
            <AccountActionsMenu
              accountId={customer.account.id}
              status={customer.account.status}
              allowed={allowed}
              texts={{ confirm: { block: t('confirm.block'), unblock: t('confirm.unblock'), delete: t('confirm.delete') }, blocked: t('notifications.blocked'), unblocked: t('notifications.unblocked') }}
              onResult={setResult}
              onChanged={() => void refetch()}
              onDelete={remove}
            />
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
      <ResultPopup
        result={result}
        onClose={() => {
          setResult(undefined);
          if (deleted) navigate(linkTo('customers'));
        }}
      />
    </Stack>
  );
}
