import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { orderRoutes } from '../../../contract/api/order';
import type { AppDataProvider } from '../../dataProvider';
import { SelectFilter } from '../common/SelectFilter';

/** The symbols that have orders (GET /api/order/symbol/all). */
export function SymbolFilter({ value, onChange }: { value: string | undefined; onChange: (value: string) => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({ queryKey: ['orders', 'symbols'], queryFn: () => dataProvider.call(orderRoutes.symbols) });
  const options = (data?.symbols ?? []).map((symbol) => ({ value: symbol, label: symbol }));
  return <SelectFilter label={translate('resources.orders.filters.symbol')} allLabel={translate('app.lists.all')} value={value} options={options} onChange={onChange} />;
}
