import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { customerRoutes } from '../../../contract/api/customer';
import type { AppDataProvider } from '../../dataProvider';
import { HeaderCount } from '../common/ListHeader';

/** Pending(n) and Rejected(n). */
export function ApprovalCounts() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['customers', 'statistics'], queryFn: () => dataProvider.call(customerRoutes.statistics) });
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.pending')} value={data?.pending} color="warning.main" />
      <HeaderCount label={translate('resources.customers.counts.rejected')} value={data?.rejected} color="error.main" />
    </>
  );
}
