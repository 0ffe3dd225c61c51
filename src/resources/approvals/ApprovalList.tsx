import Stack from '@mui/material/Stack';
import { useTranslate, type Identifier } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus, accountStatusLabels, customerGroupLabels, type CustomerGroup } from '../../../contract/enums';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../components/formatDate';
import { CountryCell } from '../../components/list/CountryCell';
import { CountryFilter } from '../../components/list/CountryFilter';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SelectFilter } from '../../components/list/SelectFilter';
import { SpecList } from '../../components/list/SpecList';
import { linkTo } from '../../pages/routes';
import { useAgentChoices } from '../customers/CustomerFilters';
import { OFFERED_GROUPS } from '../customers/GroupOrExclusiveInput';
import { ApprovalCounts } from './ApprovalCounts';

/** The pending list's query parameters (spec 2). */
const FILTERS = ['country', 'agent', 'status', 'group'] as const;
const Column = ListColumn<Customer>;
const showPath = (id: Identifier) => linkTo('approvalShow', { id });

function ApprovalFilters() {
  const translate = useTranslate();
  const l = (key: string) => translate(`app.lists.${key}`);
  const agents = useAgentChoices();
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      <SelectFilter
        source="status"
        label={l('status')}
        allLabel={l('allStatuses')}
        choices={[AccountStatus.Pending, AccountStatus.Rejected].map((status) => ({ value: String(status), label: accountStatusLabels[status] }))}
      />
      <SelectFilter source="group" label={l('group')} allLabel={l('allGroups')} choices={OFFERED_GROUPS.map((group) => ({ value: String(group), label: customerGroupLabels[group] }))} />
      <SelectFilter source="agent" label={l('agent')} allLabel={l('allAgents')} choices={agents} />
      <CountryFilter />
      <ResetFiltersButton />
    </Stack>
  );
}

/** 'Pending Approval Customer' list (/customers/approval): query parameters pageIndex, country, agent, status, group. */
export function ApprovalList() {
  const translate = useTranslate();
  return (
    <SpecList resource="approvals" filters={FILTERS}>
      <ListHeader title={translate('resources.customers.title.approvalList')} counts={<ApprovalCounts />} />
      <ApprovalFilters />
      <ListDataTable<Customer> rowClick={showPath}>
        <Column label="resources.customers.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column label="resources.customers.fields.name" disableSort render={(row) => <Link to={showPath(row.id)}>{`${row.account.firstName} ${row.account.lastName}`}</Link>} />
        <Column
          label="resources.customers.fields.agent"
          disableSort
          render={(row) => (row.agent ? <Link to={linkTo('agentShow', { id: row.agent.id })}>{`${row.agent.firstName} ${row.agent.lastName}`}</Link> : null)}
        />
        <Column label="resources.customers.fields.country" disableSort render={(row) => <CountryCell country={row.account.country} />} />
        <Column label="resources.customers.fields.group" disableSort render={(row) => (row.group ? customerGroupLabels[row.group as CustomerGroup] : '')} />
        <Column
          label="resources.customers.fields.status"
          disableSort
          render={(row) => <StatusChip status={row.account.status} />}
        />
        <Column label="resources.customers.fields.since" disableSort render={(row) => formatDate(row.datetimeInserted)} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
