import Stack from '@mui/material/Stack';
import { useGetList, useTranslate } from 'react-admin';
import type { CustomerExecution } from '../../../contract/api/order';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { entryDirectionLabels, orderStatusLabels, type EntryDirection, type OrderStatus } from '../../../contract/enums';
import { formatDate, formatTime } from '../../components/formatDate';
import { UsdtAmount } from '../../components/UsdtAmount';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { MonthFilter } from '../common/MonthFilter';
import { ResetButton } from '../common/ResetButton';
import { rowNumber } from '../common/listParams';
import { useListState } from '../common/useListState';

const FILTERS = ['month'] as const;

/** The customer's own 'Order & Alert' (read-only): their part of each order and its realized PnL. */
export function CustomerOrderList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.orders.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const { data, total, isPending } = useGetList<CustomerExecution>('customerOrders', { pagination: { page: list.page, perPage: list.pageSize }, filter: { month: list.filters.month ?? '' } });
  const columns: Column<CustomerExecution>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'id', label: t('fields.id'), render: (row) => row.orderId },
    { key: 'symbol', label: t('fields.symbol'), render: (row) => row.strategy.symbol },
    { key: 'side', label: t('fields.side'), render: (row) => entryDirectionLabels[row.side as EntryDirection] ?? '' },
    { key: 'status', label: t('fields.status'), render: (row) => orderStatusLabels[row.status as OrderStatus] ?? '' },
    { key: 'pnl', label: t('fields.realizedPnl'), render: (row) => <UsdtAmount value={row.realizedPnl} /> },
    { key: 'date', label: t('fields.datetimeInserted'), render: (row) => `${formatDate(row.datetimeInserted)} ${formatTime(row.datetimeInserted)}` },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader title={t('title')} />
      <Stack direction="row" spacing={1}>
        <MonthFilter value={list.filters.month} onChange={(value) => list.setFilter('month', value)} />
        <ResetButton onClick={list.reset} />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
    </Stack>
  );
}
