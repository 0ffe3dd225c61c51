import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus, accountStatusLabels, ENABLED_EXCHANGES, exchangeLabels, type Exchange } from '../../../contract/enums';
import { StatusChip } from '../../components/StatusChip';
import { UsdtAmount } from '../../components/UsdtAmount';
import { formatDate } from '../../components/formatDate';
import { CountryCell } from '../../components/list/CountryCell';
import { CountryFilter } from '../../components/list/CountryFilter';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { MonthFilter } from '../../components/list/MonthFilter';
import { NameSearchInput } from '../../components/list/NameSearchInput';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SelectFilter } from '../../components/list/SelectFilter';
import { SpecList } from '../../components/list/SpecList';
import { AgentCustomerCounts } from './AgentCustomerCounts';

const FILTERS = ['country', 'status', 'month', 'platformType'] as const;
const Column = ListColumn<Customer>;

/** The agent's 'Customer Listing' (/agent/customers): Active / Blocked counts, filters, sort on wallet amount. */
export function AgentCustomerList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const l = (key: string) => translate(`app.lists.${key}`);
  return (
    <SpecList resource="agentCustomers" filters={FILTERS}>
      <ListHeader title={t('title.agentList')} counts={<AgentCustomerCounts />} />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <NameSearchInput />
        <SelectFilter
          source="status"
          label={l('status')}
          allLabel={l('allStatuses')}
          choices={[AccountStatus.Active, AccountStatus.Blocked].map((status) => ({ value: String(status), label: accountStatusLabels[status] }))}
        />
        <CountryFilter />
        <MonthFilter label={t('filters.monthSince')} />
        <SelectFilter source="platformType" label={l('platform')} allLabel={l('allPlatforms')} choices={ENABLED_EXCHANGES.map((e) => ({ value: String(e), label: exchangeLabels[e] }))} />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<Customer>>
        <Column label="resources.customers.fields.agentNumber" disableSort>
          <RowNumberField />
        </Column>
        <Column label="resources.customers.fields.name" disableSort render={(row) => `${row.account.firstName} ${row.account.lastName}`} />
        <Column source="id" label="resources.customers.fields.id" disableSort />
        <Column label="resources.customers.fields.country" disableSort render={(row) => <CountryCell country={row.account.country} />} />
        <Column
          label="resources.customers.fields.status"
          disableSort
          render={(row) => <StatusChip status={row.account.status} otherColor="primary" />}
        />
        <Column label="resources.customers.fields.exchange" disableSort render={(row) => exchangeLabels[row.platformType as Exchange] ?? ''} />
        <Column label="resources.customers.fields.memberSince" disableSort render={(row) => formatDate(row.datetimeInserted)} />
        <Column source="currentWalletAmount" label="resources.customers.fields.wallet" render={(row) => <UsdtAmount value={row.currentWalletAmount} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
