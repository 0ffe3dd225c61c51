import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import type { RegistrationIdItem } from '../../../contract/api/registrationId';
import { REGISTRATION_ID_PAGE_SIZE } from '../../../contract/constants';
import { RegistrationIdStatus, registrationIdStatusLabels } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SelectFilter } from '../../components/list/SelectFilter';
import { SpecList } from '../../components/list/SpecList';
import { RegistrationIdCreator } from '../agents/RegistrationIdCreator';
import { RegistrationIdCounts } from './RegistrationIdCounts';

const FILTERS = ['status'] as const;
const statusColor = { [RegistrationIdStatus.Pending]: 'warning', [RegistrationIdStatus.Registered]: 'success', [RegistrationIdStatus.Expired]: 'default' } as const;
const Column = ListColumn<RegistrationIdItem>;

/** 'Registration ID Record' (/agent/registrationids): counts Registered, Pending, Expired; status filter; 100 per page. */
export function RegistrationIdList() {
  const translate = useTranslate();
  return (
    <SpecList resource="registrationIds" filters={FILTERS} perPage={REGISTRATION_ID_PAGE_SIZE}>
      <ListHeader title={translate('resources.registrationIds.title')} counts={<RegistrationIdCounts />} />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <SelectFilter
          source="status"
          label={translate('app.lists.status')}
          allLabel={translate('app.lists.allStatuses')}
          choices={Object.values(RegistrationIdStatus).map((status) => ({ value: String(status), label: registrationIdStatusLabels[status] }))}
        />
        <RegistrationIdCreator />
      </Stack>
      <ListDataTable<RegistrationIdItem>>
        <Column label="resources.registrationIds.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="code" label="resources.registrationIds.fields.code" disableSort />
        <Column
          label="resources.registrationIds.fields.status"
          disableSort
          render={(row) => (
            <Chip size="small" variant="outlined" color={statusColor[row.status as RegistrationIdStatus] ?? 'default'} label={registrationIdStatusLabels[row.status as RegistrationIdStatus] ?? row.status} />
          )}
        />
        <Column label="resources.registrationIds.fields.datetimeInserted" disableSort render={(row) => formatDate(row.datetimeInserted)} />
        <Column label="resources.registrationIds.fields.datetimeRegistered" disableSort render={(row) => formatDate(row.datetimeRegistered)} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
