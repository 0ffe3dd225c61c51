import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Order } from '../../../contract/api/order';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { EntryDirection, OrderStatus, entryDirectionLabels, orderEntryTypeLabels, orderStatusLabels, type OrderEntryType } from '../../../contract/enums';
import { formatDate, formatTime } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { UsdtAmount } from '../../components/UsdtAmount';
import { linkTo } from '../../pages/routes';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { MonthFilter } from '../common/MonthFilter';
import { ResetButton } from '../common/ResetButton';
import { rowNumber } from '../common/listParams';
import { useListState } from '../common/useListState';
import { OrderCounts } from './OrderCounts';
import { OrderToggle } from './OrderToggle';
import { SymbolFilter } from './SymbolFilter';

const FILTERS = ['symbol', 'month'] as const;
const statusColor = { [OrderStatus.Active]: 'info', [OrderStatus.Win]: 'success', [OrderStatus.Loss]: 'error' } as const;

/** 'Order & Alert': query parameters pageIndex, symbol and month; TotalDeal, Win and Loss counts. */
export function OrderList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.orders.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const [result, setResult] = useState<Result | undefined>(undefined);
  const { data, total, isPending, refetch } = useGetList<Order>('orders', {
    pagination: { page: list.page, perPage: list.pageSize },
    filter: { symbol: list.filters.symbol ?? '', month: list.filters.month ?? '' },
  });
  const columns: Column<Order>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'id', label: t('fields.id'), render: (row) => row.id },
    { key: 'strategy', label: t('fields.strategy'), render: (row) => <Link to={linkTo('strategyEdit', { strategyId: row.strategy.id })}>{row.strategy.id}</Link> },
    { key: 'symbol', label: t('fields.symbol'), render: (row) => row.strategy.symbol },
    { key: 'side', label: t('fields.side'), render: (row) => entryDirectionLabels[row.side as EntryDirection] ?? row.side },
    { key: 'entryType', label: t('fields.entryType'), render: (row) => orderEntryTypeLabels[row.entryType as OrderEntryType] ?? row.entryType },
    {
      key: 'status',
      label: t('fields.status'),
      render: (row) => <Chip size="small" variant="outlined" color={statusColor[row.status as OrderStatus] ?? 'default'} label={orderStatusLabels[row.status as OrderStatus] ?? row.status} />,
    },
    { key: 'pnl', label: t('fields.realizedPnl'), render: (row) => <UsdtAmount value={row.realizedPnl} /> },
    { key: 'date', label: t('fields.datetimeInserted'), render: (row) => `${formatDate(row.datetimeInserted)} ${formatTime(row.datetimeInserted)}` },
    { key: 'toggle', label: t('fields.toggle'), render: (row) => <OrderToggle order={row} onResult={setResult} onClosed={() => void refetch()} /> },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader title={t('title')} counts={<OrderCounts />} />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <SymbolFilter value={list.filters.symbol} onChange={(value) => list.setFilter('symbol', value)} />
        <MonthFilter value={list.filters.month} onChange={(value) => list.setFilter('month', value)} />
        <ResetButton onClick={list.reset} />
      </Stack>
      <ListTable
        columns={columns}
        rows={data}
        rowKey={(row) => row.id}
        loading={isPending}
        total={total ?? 0}
        page={list.page}
        pageSize={list.pageSize}
        onPageChange={list.setPage}
        onPageSizeChange={list.setPageSize}
      />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
