import Logout from '@mui/icons-material/Logout';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useLogout, useTranslate } from 'react-admin';
import { Navigate } from 'react-router-dom';
import { AccountStatus, NO_EXCHANGE } from '../../../contract/enums';
import { PauseNotice } from '../../components/switches/PauseNotice';
import { ResultsCard } from '../../components/results/ResultsCard';
import { UsdtAmount } from '../../components/UsdtAmount';
import { useAppDataProvider } from '../../dataProvider';
import { publicPaths } from '../routes';
import { OwnPasswordButton } from '../../components/profile/OwnPasswordButton';
import { PageTitle } from '../../components/profile/PageTitle';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { StatCard } from '../../components/profile/StatCard';
import { StatusChip } from '../../components/StatusChip';
import { customerFields } from '../../resources/customers/customerFields';
import { ThankYouModal } from './ThankYouModal';

/**
 * The customer's own page: balance and transactions, the read-only profile, the password pencil
 * (disabled while Pending, spec 6) and a log-out icon.
 */
export function CustomerDashboard() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const dataProvider = useAppDataProvider();
  const logout = useLogout();
  const { data: customer, isPending } = useQuery({ queryKey: ['customerSelf', 'own'], queryFn: () => dataProvider.getOwnCustomer() });
  const customerId = customer?.id;
  const { data: pause } = useQuery({ queryKey: ['customerPause', customerId], queryFn: () => dataProvider.customerPause(customerId!), enabled: customerId !== undefined });
  if (isPending) return <LinearProgress />;
  if (!customer) return null;
  if (customer.platformType === NO_EXCHANGE) return <Navigate to={publicPaths.connect} replace />;
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('sections.performance')}
        actions={
          <>
            <StatusChip status={customer.account.status} />
            <OwnPasswordButton disabled={customer.account.status === AccountStatus.Pending} />
            <IconButton aria-label={t('actions.logout')} onClick={() => void logout()}>
              <Logout />
            </IconButton>
          </>
        }
      />
      <PauseNotice state={pause} audience="customer" />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
        <StatCard label={t('fields.currentBalance')} value={<UsdtAmount value={customer.currentWalletAmount} />} />
        <StatCard label={t('fields.totalTransaction')} value={customer.totalTransactions} />
      </Stack>
      <ResultsCard customerId={customer.id} />
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={customerFields(customer).map((field) => ({ label: t(`fields.${field.key}`), value: field.value }))} />
        </CardContent>
      </Card>
      <ThankYouModal />
    </Stack>
  );
}
