import Add from '@mui/icons-material/Add';
import Visibility from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDataProvider, useGetList, useRefresh, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { formatDate } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { CountryCell } from '../common/CountryCell';
import { ExportButton } from '../common/ExportButton';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { ResetButton } from '../common/ResetButton';
import { StatusChip } from '../common/StatusChip';
import { rowNumber, toRaSort } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';
import { CustomerCounts } from './CustomerCounts';
import { CustomerFilters } from './CustomerFilters';
import { GroupConvertDialog } from './GroupConvertDialog';
import { NameSearchBox } from './NameSearchBox';
import { CUSTOMER_FILTERS } from './customerFilter';

/**
 * 'Customer List': name search (1 s debounce), six filters in the query string, three-state sort,
 * reset, export, bulk group 'Convert', add, and the Active / Inactive counts.
 */
export function CustomerList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const list = useListState(CUSTOMER_FILTERS, DEFAULT_PAGE_SIZE);
  const [search, setSearch] = useState('');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  const canExport = useCan('customers', 'export');
  const canGroup = useCan('customers', 'group');
  const canCreate = useCan('customers', 'create');
  const { data, total, isPending } = useGetList<Customer>('customers', {
    pagination: { page: list.page, perPage: list.pageSize },
    sort: toRaSort(list.sort),
    filter: { ...list.filters, q: search },
  });
  const columns: Column<Customer>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    {
      key: 'name',
      label: t('fields.name'),
      sortField: 'account.firstName',
      render: (row) => <Link to={linkTo('customerShow', { customerId: row.id })}>{`${row.account.firstName} ${row.account.lastName}`}</Link>,
    },
    { key: 'country', label: t('fields.country'), render: (row) => <CountryCell country={row.account.country} /> },
    { key: 'status', label: t('fields.status'), render: (row) => <StatusChip status={row.account.status} label={translate(`resources.customers.statuses.${row.account.status}`)} /> },
    { key: 'since', label: t('fields.since'), sortField: 'datetimeInserted', render: (row) => formatDate(row.datetimeInserted) },
    {
      key: 'action',
      label: t('fields.action'),
      render: (row) => (
        <IconButton size="small" component={Link} to={linkTo('customerShow', { customerId: row.id })} aria-label={translate('app.lists.view')}>
          <Visibility fontSize="small" />
        </IconButton>
      ),
    },
  ];
  const reset = () => {
    setSearch('');
    list.reset();
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title.list')}
        counts={<CustomerCounts />}
        actions={
          <>
            <ExportButton fileName="customers.xlsx" allowed={canExport} onResult={setResult} load={() => dataProvider.call(customerRoutes.export)} />
            <GroupConvertDialog allowed={canGroup} onResult={setResult} onDone={refresh} />
            <Button variant="contained" startIcon={<Add />} component={Link} to={linkTo('customerAdd')} disabled={!canCreate}>
              {t('actions.add')}
            </Button>
          </>
        }
      />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <NameSearchBox value={search} onSearch={setSearch} />
        <CustomerFilters list={list} />
        <ResetButton onClick={reset} />
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
