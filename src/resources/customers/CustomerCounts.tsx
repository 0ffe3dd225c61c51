import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { useAppDataProvider } from '../../dataProvider';

/** GET /api/customer/statistics, shared by the customer and approval lists. */
export function useCustomerStatistics() {
  const dataProvider = useAppDataProvider();
  return useQuery({ queryKey: ['customers', 'statistics'], queryFn: () => dataProvider.getCustomerStatistics() });
}

/** Active(n) and Inactive(n) of the staff customer list. */
export function CustomerCounts() {
  const translate = useTranslate();
  const { data } = useCustomerStatistics();
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.active')} value={data?.active} color="success.main" />
      <HeaderCount label={translate('resources.customers.counts.inactive')} value={data?.blocked} color="error.main" />
    </>
  );
}
