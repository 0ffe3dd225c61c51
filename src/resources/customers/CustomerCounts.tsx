import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { customerRoutes } from '../../../contract/api/customer';
import type { AppDataProvider } from '../../dataProvider';
import { HeaderCount } from '../common/ListHeader';

/** Active(n) and Inactive(n) of the staff customer list. */
export function CustomerCounts() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['customers', 'statistics'], queryFn: () => dataProvider.call(customerRoutes.statistics) });
  return (
    <>
      <HeaderCount label={translate('resources.customers.counts.active')} value={data?.active} color="success.main" />
      <HeaderCount label={translate('resources.customers.counts.inactive')} value={data?.blocked} color="error.main" />
    </>
  );
}
