import { useTranslate, type Identifier } from 'react-admin';
import type { Employee } from '../../../contract/api/employee';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../components/formatDate';
import { CountryCell } from '../../components/list/CountryCell';
import { AddButton, PersonLink, ViewButton } from '../../components/list/LinkButtons';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { linkTo } from '../../pages/routes';

const Column = ListColumn<Employee>;
const showPath = (id: Identifier) => linkTo('employeeShow', { id });

/** 'Employee List' (/employees): 50 per page, query parameter pageIndex. */
export function EmployeeList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.employees.${key}`);
  return (
    <SpecList resource="employees">
      <ListHeader title={t('title.list')} actions={<AddButton to={linkTo('employeeAdd')} label={t('actions.add')} />} />
      <ListDataTable<Employee> rowClick={showPath}>
        <Column label="resources.employees.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column label="resources.employees.fields.name" disableSort render={(row) => <PersonLink to={showPath(row.id)} person={row.account} />} />
        <Column label="resources.employees.fields.country" disableSort render={(row) => <CountryCell country={row.account.country} />} />
        <Column label="resources.employees.fields.status" disableSort render={(row) => <StatusChip status={row.account.status} />} />
        <Column label="resources.employees.fields.since" disableSort render={(row) => formatDate(row.account.datetimeInserted)} />
        <Column label="resources.employees.fields.action" disableSort render={(row) => <ViewButton to={showPath(row.id)} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
