import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { SelectFilter } from '../../components/list/SelectFilter';
import { useAppDataProvider } from '../../dataProvider';

/** The symbols that have orders (GET /api/order/symbol/all). */
export function SymbolFilter() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['orders', 'symbols'], queryFn: () => dataProvider.getOrderSymbols() });
  const choices = (data?.symbols ?? []).map((symbol) => ({ value: symbol, label: symbol }));
  return <SelectFilter source="symbol" label={translate('resources.orders.filters.symbol')} allLabel={translate('app.lists.all')} choices={choices} />;
}
