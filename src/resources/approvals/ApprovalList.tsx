import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { AGENT_DROPDOWN_QUERY, agentRoutes } from '../../../contract/api/agent';
import type { Customer } from '../../../contract/api/customer';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { AccountStatus, customerGroupLabels, type CustomerGroup } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { CountryCell } from '../common/CountryCell';
import { CountryFilter } from '../common/CountryFilter';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { ResetButton } from '../common/ResetButton';
import { SelectFilter } from '../common/SelectFilter';
import { StatusChip } from '../common/StatusChip';
import { rowNumber } from '../common/listParams';
import { useListState } from '../common/useListState';
import { OFFERED_GROUPS } from '../customers/GroupOrExclusiveInput';
import { ApprovalCounts } from './ApprovalCounts';

const FILTERS = ['country', 'agent', 'status', 'group'] as const;

/** Customers pending approval (and rejected): query parameters pageIndex, country, agent, status, group. */
export function ApprovalList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const l = (key: string) => translate(`app.lists.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const dataProvider = useDataProvider<AppDataProvider>();
  const agents = useQuery({ queryKey: ['agents', 'dropdown'], queryFn: () => dataProvider.call(agentRoutes.all, { query: AGENT_DROPDOWN_QUERY }) });
  const { data, total, isPending } = useGetList<Customer>('approvals', { pagination: { page: list.page, perPage: list.pageSize }, filter: list.filters });
  const columns: Column<Customer>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'name', label: t('fields.name'), render: (row) => <Link to={linkTo('approvalShow', { customerId: row.id })}>{`${row.account.firstName} ${row.account.lastName}`}</Link> },
    { key: 'agent', label: t('fields.agent'), render: (row) => (row.agent ? <Link to={linkTo('agentShow', { agentId: row.agent.id })}>{`${row.agent.firstName} ${row.agent.lastName}`}</Link> : null) },
    { key: 'country', label: t('fields.country'), render: (row) => <CountryCell country={row.account.country} /> },
    { key: 'group', label: t('fields.group'), render: (row) => (row.group ? customerGroupLabels[row.group as CustomerGroup] : '') },
    { key: 'status', label: t('fields.status'), render: (row) => <StatusChip status={row.account.status} label={t(`statuses.${row.account.status}`)} /> },
    { key: 'since', label: t('fields.since'), render: (row) => formatDate(row.datetimeInserted) },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader title={t('title.approvalList')} counts={<ApprovalCounts />} />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <SelectFilter
          label={l('status')}
          allLabel={l('allStatuses')}
          value={list.filters.status}
          options={[AccountStatus.Pending, AccountStatus.Rejected].map((status) => ({ value: String(status), label: t(`statuses.${status}`) }))}
          onChange={(value) => list.setFilter('status', value)}
        />
        <SelectFilter label={l('group')} allLabel={l('allGroups')} value={list.filters.group} options={OFFERED_GROUPS.map((group) => ({ value: String(group), label: customerGroupLabels[group] }))} onChange={(value) => list.setFilter('group', value)} />
        <SelectFilter
          label={l('agent')}
          allLabel={l('allAgents')}
          value={list.filters.agent}
          options={(agents.data?.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.account.firstName} ${agent.account.lastName}` }))}
          onChange={(value) => list.setFilter('agent', value)}
        />
        <CountryFilter value={list.filters.country} onChange={(value) => list.setFilter('country', value)} />
        <ResetButton onClick={list.reset} />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
    </Stack>
  );
}
