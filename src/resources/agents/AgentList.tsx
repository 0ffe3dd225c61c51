import Stack from '@mui/material/Stack';
import { useTranslate, type Identifier } from 'react-admin';
import { AgentSortField, type Agent } from '../../../contract/api/agent';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../components/formatDate';
import { CountryCell } from '../../components/list/CountryCell';
import { CountryFilter } from '../../components/list/CountryFilter';
import { AddButton, PersonLink, ViewButton } from '../../components/list/LinkButtons';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { linkTo } from '../../pages/routes';
import { AgentCounts } from './AgentCounts';

const FILTERS = ['country'] as const;
const Column = ListColumn<Agent>;
const showPath = (id: Identifier) => linkTo('agentShow', { id });

/** 'Agent List' (/agents): Active / Blocked counts, country filter, sort by name or Total Clientele, 50 per page. */
export function AgentList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.agents.${key}`);
  return (
    <SpecList resource="agents" filters={FILTERS}>
      <ListHeader title={t('title.list')} counts={<AgentCounts />} actions={<AddButton to={linkTo('agentAdd')} label={t('actions.add')} />} />
      <Stack direction="row" spacing={1}>
        <CountryFilter />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<Agent> rowClick={showPath}>
        <Column label="resources.agents.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source={AgentSortField.FirstName} label="resources.agents.fields.name" render={(row) => <PersonLink to={showPath(row.id)} person={row.account} />} />
        <Column label="resources.agents.fields.country" disableSort render={(row) => <CountryCell country={row.account.country} />} />
        <Column label="resources.agents.fields.status" disableSort render={(row) => <StatusChip status={row.account.status} />} />
        <Column source={AgentSortField.TotalCustomers} label="resources.agents.fields.totalCustomers" />
        <Column label="resources.agents.fields.since" disableSort render={(row) => formatDate(row.account.datetimeInserted)} />
        <Column label="resources.agents.fields.action" disableSort render={(row) => <ViewButton to={showPath(row.id)} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
