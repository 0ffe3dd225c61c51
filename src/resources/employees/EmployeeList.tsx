import Add from '@mui/icons-material/Add';
import Visibility from '@mui/icons-material/Visibility';
import Button from '@mui/material/Button';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import { useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Employee } from '../../../contract/api/employee';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { formatDate } from '../../components/formatDate';
import { linkTo } from '../../pages/routes';
import { CountryCell } from '../common/CountryCell';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { StatusChip } from '../common/StatusChip';
import { rowNumber } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';

const FILTERS = [] as const;

/** 'Employee List': 50 per page, query parameter pageIndex. */
export function EmployeeList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.employees.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const canCreate = useCan('employees', 'create');
  const { data, total, isPending } = useGetList<Employee>('employees', { pagination: { page: list.page, perPage: list.pageSize } });
  const columns: Column<Employee>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'name', label: t('fields.name'), render: (row) => <Link to={linkTo('employeeShow', { employeeId: row.id })}>{`${row.account.firstName} ${row.account.lastName}`}</Link> },
    { key: 'country', label: t('fields.country'), render: (row) => <CountryCell country={row.account.country} /> },
    { key: 'status', label: t('fields.status'), render: (row) => <StatusChip status={row.account.status} label={t(`statuses.${row.account.status}`)} /> },
    { key: 'since', label: t('fields.since'), render: (row) => formatDate(row.account.datetimeInserted) },
    {
      key: 'action',
      label: t('fields.action'),
      render: (row) => (
        <IconButton size="small" component={Link} to={linkTo('employeeShow', { employeeId: row.id })} aria-label={translate('app.lists.view')}>
          <Visibility fontSize="small" />
        </IconButton>
      ),
    },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title.list')}
        actions={
          <Button variant="contained" startIcon={<Add />} component={Link} to={linkTo('employeeAdd')} disabled={!canCreate}>
            {t('actions.add')}
          </Button>
        }
      />
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
    </Stack>
  );
}
