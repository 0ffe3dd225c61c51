import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useGetList, useRefresh, useTranslate } from 'react-admin';
import { registrationIdRoutes, type RegistrationIdItem } from '../../../contract/api/registrationId';
import { REGISTRATION_ID_PAGE_SIZE } from '../../../contract/constants';
import { RegistrationIdStatus, registrationIdStatusLabels } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import type { AppDataProvider } from '../../dataProvider';
import { RegistrationIdCreator } from '../agents/RegistrationIdCreator';
import { HeaderCount, ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { SelectFilter } from '../common/SelectFilter';
import { rowNumber } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';

const FILTERS = ['status'] as const;
const statusColor = { [RegistrationIdStatus.Pending]: 'warning', [RegistrationIdStatus.Registered]: 'success', [RegistrationIdStatus.Expired]: 'default' } as const;

/** 'Registration ID Record': counts Registered, Pending, Expired; status filter; 100 per page. */
export function RegistrationIdList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.registrationIds.${key}`);
  const list = useListState(FILTERS, REGISTRATION_ID_PAGE_SIZE);
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const refresh = useRefresh();
  const canCreate = useCan('registrationIds', 'create');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const stats = useQuery({ queryKey: ['registrationIds', 'statistics'], queryFn: () => dataProvider.call(registrationIdRoutes.statistics) });
  const { data, total, isPending } = useGetList<RegistrationIdItem>('registrationIds', { pagination: { page: list.page, perPage: list.pageSize }, filter: { status: list.filters.status ?? '' } });
  const columns: Column<RegistrationIdItem>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'code', label: t('fields.code'), render: (row) => row.code },
    {
      key: 'status',
      label: t('fields.status'),
      render: (row) => <Chip size="small" variant="outlined" color={statusColor[row.status as RegistrationIdStatus] ?? 'default'} label={registrationIdStatusLabels[row.status as RegistrationIdStatus] ?? row.status} />,
    },
    { key: 'created', label: t('fields.datetimeInserted'), render: (row) => formatDate(row.datetimeInserted) },
    { key: 'registered', label: t('fields.datetimeRegistered'), render: (row) => formatDate(row.datetimeRegistered) },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title')}
        counts={
          <>
            <HeaderCount label={t('counts.registered')} value={stats.data?.used} color="success.main" />
            <HeaderCount label={t('counts.pending')} value={stats.data?.pending} color="warning.main" />
            <HeaderCount label={t('counts.expired')} value={stats.data?.expired} />
          </>
        }
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
        <SelectFilter
          label={translate('app.lists.status')}
          allLabel={translate('app.lists.allStatuses')}
          value={list.filters.status}
          options={Object.values(RegistrationIdStatus).map((status) => ({ value: String(status), label: registrationIdStatusLabels[status] }))}
          onChange={(value) => list.setFilter('status', value)}
        />
        <RegistrationIdCreator
          agentId={undefined}
          allowed={canCreate}
          onResult={(next) => {
            setResult(next);
            void queryClient.invalidateQueries({ queryKey: ['registrationIds'] });
            refresh();
          }}
        />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
