import Stack from '@mui/material/Stack';
import { useGetList, useTranslate } from 'react-admin';
import type { CustomerStrategy } from '../../../contract/api/strategy';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { amountTypeLabels, entryDirectionLabels, strategyStatusLabels, type AmountType, type EntryDirection, type StrategyStatus } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { rowNumber } from '../common/listParams';
import { useListState } from '../common/useListState';

const FILTERS = [] as const;
const amount = (value: { type: number; amount: number }) => `${value.amount} ${amountTypeLabels[value.type as AmountType] ?? ''}`;

/**
 * The customer's strategies, read-only: 'Strategy Setting Record' (`detailed` = false) or, with the
 * trading parameters, 'Presetting Parameters' (`detailed` = true).
 */
export function CustomerStrategyList({ detailed }: { detailed: boolean }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const { data, total, isPending } = useGetList<CustomerStrategy & { id: string }>('customerStrategies', { pagination: { page: list.page, perPage: list.pageSize } });
  const base: Column<CustomerStrategy>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'symbol', label: t('fields.symbol'), render: (row) => row.symbol },
    { key: 'id', label: t('fields.id'), render: (row) => row.id },
  ];
  const summary: Column<CustomerStrategy>[] = [
    { key: 'status', label: t('fields.status'), render: (row) => strategyStatusLabels[row.status as StrategyStatus] ?? '' },
    { key: 'result', label: t('fields.result'), render: (row) => `${t('fields.win')} ${row.win} / ${t('fields.loss')} ${row.loss}` },
    { key: 'date', label: t('fields.datetimeInserted'), render: (row) => formatDate(row.datetimeInserted) },
  ];
  const parameters: Column<CustomerStrategy>[] = [
    { key: 'direction', label: t('fields.entryDirection'), render: (row) => entryDirectionLabels[row.entryDirection as EntryDirection] ?? '' },
    { key: 'leverage', label: t('fields.leverage'), render: (row) => row.leverage },
    { key: 'invest', label: t('fields.investDollar'), render: (row) => amount(row.investAmount) },
    { key: 'tp1', label: translate('resources.strategies.fields.tpTarget', { n: 1 }), render: (row) => row.tp1.targetLevel ?? '' },
    { key: 'stopLoss', label: t('fields.stopLoss'), render: (row) => amount(row.stopLoss) },
    { key: 'trailing', label: t('fields.trailingStop'), render: (row) => t(row.trailingStop ? 'on' : 'off') },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader title={t(detailed ? 'title.form' : 'title.list')} />
      <ListTable columns={[...base, ...(detailed ? parameters : summary)]} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
    </Stack>
  );
}

export function CustomerStrategyRecord() {
  return <CustomerStrategyList detailed={false} />;
}

export function CustomerPresetParameters() {
  return <CustomerStrategyList detailed />;
}
