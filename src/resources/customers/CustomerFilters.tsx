import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { AGENT_DROPDOWN_QUERY, agentRoutes } from '../../../contract/api/agent';
import { AccountStatus, CustomerGroup, ENABLED_EXCHANGES, customerGroupLabels, exchangeLabels } from '../../../contract/enums';
import type { AppDataProvider } from '../../dataProvider';
import { CountryFilter } from '../common/CountryFilter';
import { MonthFilter } from '../common/MonthFilter';
import { SelectFilter } from '../common/SelectFilter';
import type { ListState } from '../common/useListState';
import type { CustomerFilterName } from './customerFilter';

const STATUS_CHOICES = [AccountStatus.Active, AccountStatus.Blocked] as const;
const GROUP_CHOICES = Object.values(CustomerGroup);

/** Status, Group, Agent, Country, Month and Platform of the staff customer list. */
export function CustomerFilters({ list }: { list: ListState<CustomerFilterName> }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const agents = useQuery({ queryKey: ['agents', 'dropdown'], queryFn: () => dataProvider.call(agentRoutes.all, { query: AGENT_DROPDOWN_QUERY }) });
  const t = (key: string) => translate(`app.lists.${key}`);
  const set = (name: CustomerFilterName) => (value: string) => list.setFilter(name, value);
  return (
    <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
      <SelectFilter
        label={t('status')}
        allLabel={t('allStatuses')}
        value={list.filters.status}
        options={STATUS_CHOICES.map((status) => ({ value: String(status), label: translate(`resources.customers.statuses.${status}`) }))}
        onChange={set('status')}
      />
      <SelectFilter
        label={t('group')}
        allLabel={t('allGroups')}
        value={list.filters.group}
        options={GROUP_CHOICES.map((group) => ({ value: String(group), label: customerGroupLabels[group] }))}
        onChange={set('group')}
      />
      <SelectFilter
        label={t('agent')}
        allLabel={t('allAgents')}
        value={list.filters.agent}
        options={(agents.data?.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.account.firstName} ${agent.account.lastName}` }))}
        onChange={set('agent')}
      />
      <CountryFilter value={list.filters.country} onChange={set('country')} />
      <MonthFilter value={list.filters.month} onChange={set('month')} />
      <SelectFilter
        label={t('platform')}
        allLabel={t('allPlatforms')}
        value={list.filters.platformType}
        options={ENABLED_EXCHANGES.map((exchange) => ({ value: String(exchange), label: exchangeLabels[exchange] }))}
        onChange={set('platformType')}
      />
    </Stack>
  );
}
