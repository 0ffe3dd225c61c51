import Add from '@mui/icons-material/Add';
import Visibility from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { AgentSortField, agentRoutes, type Agent } from '../../../contract/api/agent';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { formatDate } from '../../components/formatDate';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { CountryCell } from '../common/CountryCell';
import { CountryFilter } from '../common/CountryFilter';
import { HeaderCount, ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { ResetButton } from '../common/ResetButton';
import { StatusChip } from '../common/StatusChip';
import { rowNumber, toRaSort } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';

const FILTERS = ['country'] as const;

/** 'Agent List': Active / Suspended counts, country filter, sort by name or Total Clientele, 50 per page. */
export function AgentList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.agents.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const dataProvider = useDataProvider<AppDataProvider>();
  const canCreate = useCan('agents', 'create');
  const stats = useQuery({ queryKey: ['agents', 'statistics'], queryFn: () => dataProvider.call(agentRoutes.statistics) });
  const { data, total, isPending } = useGetList<Agent>('agents', {
    pagination: { page: list.page, perPage: list.pageSize },
    sort: toRaSort(list.sort),
    filter: { country: list.filters.country ?? '' },
  });
  const columns: Column<Agent>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'name', label: t('fields.name'), sortField: AgentSortField.FirstName, render: (row) => <Link to={linkTo('agentShow', { agentId: row.id })}>{`${row.account.firstName} ${row.account.lastName}`}</Link> },
    { key: 'country', label: t('fields.country'), render: (row) => <CountryCell country={row.account.country} /> },
    { key: 'status', label: t('fields.status'), render: (row) => <StatusChip status={row.account.status} label={t(`statuses.${row.account.status}`)} /> },
    { key: 'total', label: t('fields.totalCustomers'), sortField: AgentSortField.TotalCustomers, render: (row) => row.totalCustomers },
    { key: 'since', label: t('fields.since'), render: (row) => formatDate(row.account.datetimeInserted) },
    {
      key: 'action',
      label: t('fields.action'),
      render: (row) => (
        <IconButton size="small" component={Link} to={linkTo('agentShow', { agentId: row.id })} aria-label={translate('app.lists.view')}>
          <Visibility fontSize="small" />
        </IconButton>
      ),
    },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title.list')}
        counts={
          <>
            <HeaderCount label={t('counts.active')} value={stats.data?.active} color="success.main" />
            <HeaderCount label={t('counts.suspended')} value={stats.data?.blocked} color="error.main" />
          </>
        }
        actions={
          <Button variant="contained" startIcon={<Add />} component={Link} to={linkTo('agentAdd')} disabled={!canCreate}>
            {t('actions.add')}
          </Button>
        }
      />
      <Stack direction="row" spacing={1}>
        <CountryFilter value={list.filters.country} onChange={(value) => list.setFilter('country', value)} />
        <ResetButton onClick={list.reset} />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} sort={list.sort} onSort={list.toggleSort} />
    </Stack>
  );
}
