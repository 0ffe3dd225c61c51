import { useQuery } from '@tanstack/react-query';
import { useTranslate } from 'react-admin';
import { AccountStatus, accountStatusLabels, CustomerGroup, ENABLED_EXCHANGES, customerGroupLabels, exchangeLabels } from '../../../contract/enums';
import { CountryFilter } from '../../components/list/CountryFilter';
import { MonthFilter } from '../../components/list/MonthFilter';
import { SelectFilter } from '../../components/list/SelectFilter';
import { useAppDataProvider } from '../../dataProvider';

const STATUS_CHOICES = [AccountStatus.Active, AccountStatus.Blocked] as const;
const GROUP_CHOICES = Object.values(CustomerGroup);

/** The first 100 agents for the agent filters and dropdowns (spec 9). */
export function useAgentChoices() {
  const dataProvider = useAppDataProvider();
  const { data } = useQuery({ queryKey: ['agents', 'choices'], queryFn: () => dataProvider.getAgentChoices() });
  return (data?.data ?? []).map((agent) => ({ value: String(agent.id), label: `${agent.account.firstName} ${agent.account.lastName}` }));
}

/** Status, Group, Agent, Country, Month and Platform of the staff customer list. */
export function CustomerFilters() {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.lists.${key}`);
  const agents = useAgentChoices();
  return (
    <>
      <SelectFilter
        source="status"
        label={t('status')}
        allLabel={t('allStatuses')}
        choices={STATUS_CHOICES.map((status) => ({ value: String(status), label: accountStatusLabels[status] }))}
      />
      <SelectFilter source="group" label={t('group')} allLabel={t('allGroups')} choices={GROUP_CHOICES.map((group) => ({ value: String(group), label: customerGroupLabels[group] }))} />
      <SelectFilter source="agent" label={t('agent')} allLabel={t('allAgents')} choices={agents} />
      <CountryFilter />
      <MonthFilter />
      <SelectFilter
        source="platformType"
        label={t('platform')}
        allLabel={t('allPlatforms')}
        choices={ENABLED_EXCHANGES.map((exchange) => ({ value: String(exchange), label: exchangeLabels[exchange] }))}
      />
    </>
  );
}
