import Stack from '@mui/material/Stack';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useGetList, useTranslate } from 'react-admin';
import { agentRoutes } from '../../../contract/api/agent';
import type { Customer } from '../../../contract/api/customer';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { AccountStatus, ENABLED_EXCHANGES, exchangeLabels, type Exchange } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { UsdtAmount } from '../../components/UsdtAmount';
import type { AppDataProvider } from '../../dataProvider';
import { CountryCell } from '../common/CountryCell';
import { CountryFilter } from '../common/CountryFilter';
import { HeaderCount, ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { MonthFilter } from '../common/MonthFilter';
import { ResetButton } from '../common/ResetButton';
import { SelectFilter } from '../common/SelectFilter';
import { StatusChip } from '../common/StatusChip';
import { rowNumber, toRaSort } from '../common/listParams';
import { useListState } from '../common/useListState';
import { NameSearchBox } from '../customers/NameSearchBox';

const FILTERS = ['country', 'status', 'month', 'platformType'] as const;

/** The agent's 'Customer Listing': Active / Blocked counts, filters, sort on wallet amount. */
export function AgentCustomerList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const l = (key: string) => translate(`app.lists.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const [search, setSearch] = useState('');
  const dataProvider = useDataProvider<AppDataProvider>();
  const stats = useQuery({ queryKey: ['agentCustomers', 'statistics'], queryFn: () => dataProvider.call(agentRoutes.ownCustomersStatistics) });
  const { data, total, isPending } = useGetList<Customer>('agentCustomers', {
    pagination: { page: list.page, perPage: list.pageSize },
    sort: toRaSort(list.sort),
    filter: { ...list.filters, q: search },
  });
  const columns: Column<Customer>[] = [
    { key: 'number', label: t('fields.agentNumber'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'name', label: t('fields.name'), render: (row) => `${row.account.firstName} ${row.account.lastName}` },
    { key: 'id', label: t('fields.id'), render: (row) => row.id },
    { key: 'country', label: t('fields.country'), render: (row) => <CountryCell country={row.account.country} /> },
    { key: 'status', label: t('fields.status'), render: (row) => <StatusChip status={row.account.status} otherColor="secondary" label={t(`agentStatuses.${row.account.status}`)} /> },
    { key: 'exchange', label: t('fields.exchange'), render: (row) => exchangeLabels[row.platformType as Exchange] ?? '' },
    { key: 'since', label: t('fields.memberSince'), render: (row) => formatDate(row.datetimeInserted) },
    { key: 'wallet', label: t('fields.wallet'), sortField: 'currentWalletAmount', render: (row) => <UsdtAmount value={row.currentWalletAmount} /> },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title.agentList')}
        counts={
          <>
            <HeaderCount label={t('counts.active')} value={stats.data?.active} color="success.main" />
            <HeaderCount label={t('counts.blocked')} value={stats.data?.blocked} color="error.main" />
          </>
        }
      />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <NameSearchBox value={search} onSearch={setSearch} />
        <SelectFilter
          label={l('status')}
          allLabel={l('allStatuses')}
          value={list.filters.status}
          options={[AccountStatus.Active, AccountStatus.Blocked].map((status) => ({ value: String(status), label: t(`agentStatuses.${status}`) }))}
          onChange={(value) => list.setFilter('status', value)}
        />
        <CountryFilter value={list.filters.country} onChange={(value) => list.setFilter('country', value)} />
        <MonthFilter label={t('filters.monthSince')} value={list.filters.month} onChange={(value) => list.setFilter('month', value)} />
        <SelectFilter label={l('platform')} allLabel={l('allPlatforms')} value={list.filters.platformType} options={ENABLED_EXCHANGES.map((e) => ({ value: String(e), label: exchangeLabels[e] }))} onChange={(value) => list.setFilter('platformType', value)} />
        <ResetButton
          onClick={() => {
            setSearch('');
            list.reset();
          }}
        />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} sort={list.sort} onSort={list.toggleSort} />
    </Stack>
  );
}
