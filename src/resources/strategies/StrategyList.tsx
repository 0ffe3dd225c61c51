import EditIcon from '@mui/icons-material/Edit';
import Chip from '@mui/material/Chip';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { StrategyStatus, strategyStatusLabels } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ResultPopup } from '../../components/ResultPopup';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { ResetButton } from '../common/ResetButton';
import { toRaSort, rowNumber } from '../common/listParams';
import { useListState } from '../common/useListState';
import { strategyEditPath } from './strategyPaths';
import { useLocationResult } from './useLocationResult';

const FILTERS = ['symbol'] as const;

/** 'Strategy Setting Record': query parameters pageIndex and symbol; Symbol sorts in three states. */
export function StrategyList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const [result, setResult] = useLocationResult();
  const { data, total, isPending } = useGetList<Strategy>('strategies', {
    pagination: { page: list.page, perPage: list.pageSize },
    sort: toRaSort(list.sort),
    filter: { symbol: list.filters.symbol ?? '' },
  });
  const columns: Column<Strategy>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'symbol', label: t('fields.symbol'), sortField: 'symbol', render: (row) => row.symbol },
    { key: 'id', label: t('fields.id'), render: (row) => row.id },
    {
      key: 'status',
      label: t('fields.status'),
      render: (row) => (
        <Chip size="small" variant="outlined" color={row.status === StrategyStatus.Active ? 'success' : 'default'} label={strategyStatusLabels[row.status as StrategyStatus] ?? row.status} />
      ),
    },
    { key: 'result', label: t('fields.result'), render: (row) => `${t('fields.win')} ${row.win} / ${t('fields.loss')} ${row.loss}` },
    { key: 'date', label: t('fields.datetimeInserted'), render: (row) => formatDate(row.datetimeInserted) },
    {
      key: 'action',
      label: t('fields.action'),
      render: (row) => (
        <IconButton size="small" component={Link} to={strategyEditPath(row.id)} aria-label={`${t('actions.edit')} ${row.id}`}>
          <EditIcon fontSize="small" />
        </IconButton>
      ),
    },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader title={t('title.list')} />
      <Stack direction="row" spacing={1}>
        <TextField
          size="small"
          label={t('filters.symbol')}
          placeholder={t('placeholders.symbol')}
          value={list.filters.symbol ?? ''}
          onChange={(e) => list.setFilter('symbol', e.target.value.toUpperCase())}
        />
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
        sort={list.sort}
        onSort={list.toggleSort}
      />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
