import Stack from '@mui/material/Stack';
import { useTranslate, type Identifier } from 'react-admin';
import type { Customer } from '../../../contract/api/customer';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../components/formatDate';
import { CountryCell } from '../../components/list/CountryCell';
import { ExportButton } from '../../components/list/ExportButton';
import { AddButton, PersonLink, ViewButton } from '../../components/list/LinkButtons';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListHeader } from '../../components/list/ListHeader';
import { ListPagination } from '../../components/list/ListPagination';
import { NameSearchInput } from '../../components/list/NameSearchInput';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { useAppDataProvider } from '../../dataProvider';
import { CUSTOMER_FILTERS } from '../../dataProvider/resources/customerFilter';
import { linkTo } from '../../pages/routes';
import { CustomerCounts } from './CustomerCounts';
import { CustomerFilters } from './CustomerFilters';
import { GroupConvertButton } from './GroupConvertButton';

const showPath = (id: Identifier) => linkTo('customerShow', { id });
const Column = ListColumn<Customer>;


/**
 * 'Customer List' (/customers): name search (1 s), six filters and the three-state sort in the
 * query string, reset, export, bulk 'Convert', add, and the Active / Blocked counts.
 */
export function CustomerList() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  return (
    <SpecList resource="customers" filters={CUSTOMER_FILTERS}>
      <ListHeader
        title={translate('resources.customers.title.list')}
        counts={<CustomerCounts />}
        actions={
          <>
            <ExportButton fileName="customers.xlsx" exportFile={dataProvider.exportCustomers} />
            <GroupConvertButton />
            <AddButton to={linkTo('customerAdd')} label={translate('resources.customers.actions.add')} />
          </>
        }
      />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <NameSearchInput />
        <CustomerFilters />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<Customer> rowClick={showPath}>
        <Column label="resources.customers.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="account.firstName" label="resources.customers.fields.name" render={(record) => <PersonLink to={showPath(record.id)} person={record.account} />} />
        <Column label="resources.customers.fields.country" disableSort render={(record) => <CountryCell country={record.account.country} />} />
        <Column
          label="resources.customers.fields.status"
          disableSort
          render={(record) => <StatusChip status={record.account.status} />}
        />
        <Column source="datetimeInserted" label="resources.customers.fields.since" render={(record) => formatDate(record.datetimeInserted)} />
        <Column label="resources.customers.fields.action" disableSort render={(record) => <ViewButton to={showPath(record.id)} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
