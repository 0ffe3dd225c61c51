import Sync from '@mui/icons-material/Sync';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useState } from 'react';
import { useDataProvider, useGetList, useRefresh, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { accountHealthRoutes } from '../../../contract/api/accountHealth';
import { DEFAULT_PAGE_SIZE } from '../../../contract/constants';
import { ENABLED_EXCHANGES, exchangeLabels, type Exchange } from '../../../contract/enums';
import { formatDate, formatTime } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { UsdtAmount } from '../../components/UsdtAmount';
import { errorMessage, type AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { ResetButton } from '../common/ResetButton';
import { SelectFilter } from '../common/SelectFilter';
import { rowNumber } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';
import { HealthFlag } from './HealthFlag';
import type { HealthRecord } from './endpoints';

const FILTERS = ['platformType', 'problems'] as const;
const when = (value: string | null) => (value ? `${formatDate(value)} ${formatTime(value)}` : '');

/** Account Health Check: per customer, whether the key works, can trade, cannot withdraw, and the last sync. */
export function AccountHealthList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.accountHealth.${key}`);
  const list = useListState(FILTERS, DEFAULT_PAGE_SIZE);
  const dataProvider = useDataProvider<AppDataProvider>();
  const refresh = useRefresh();
  // Syncing is an admin action (area adminManage, the same as editing customers).
  const canSync = useCan('customers', 'edit');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const { data, total, isPending } = useGetList<HealthRecord>('accountHealth', { pagination: { page: list.page, perPage: list.pageSize }, filter: list.filters });
  const sync = async () => {
    setBusy(true);
    try {
      const done = await dataProvider.call(accountHealthRoutes.sync, { body: {} });
      setResult({ type: 'success', message: translate('resources.accountHealth.synced', { checked: done.checked, failed: done.failed }) });
      refresh();
    } catch (error) {
      setResult({ type: 'error', message: errorMessage(error) });
    } finally {
      setBusy(false);
    }
  };
  const columns: Column<HealthRecord>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    { key: 'name', label: t('fields.name'), render: (row) => <Link to={linkTo('customerShow', { customerId: row.customerId })}>{`${row.firstName} ${row.lastName}`}</Link> },
    { key: 'exchange', label: t('fields.exchange'), render: (row) => exchangeLabels[row.platformType as Exchange] ?? '' },
    { key: 'apiKey', label: t('fields.apiKey'), render: (row) => row.apiKey ?? '' },
    { key: 'wallet', label: t('fields.wallet'), render: (row) => <UsdtAmount value={row.currentWalletAmount} /> },
    { key: 'keyValid', label: t('fields.keyValid'), render: (row) => <HealthFlag value={row.keyValid} good /> },
    { key: 'canTrade', label: t('fields.canTrade'), render: (row) => <HealthFlag value={row.canTrade} good /> },
    { key: 'canWithdraw', label: t('fields.canWithdraw'), render: (row) => <HealthFlag value={row.canWithdraw} good={false} /> },
    { key: 'lastSync', label: t('fields.lastSyncAt'), render: (row) => when(row.lastSyncAt) },
    { key: 'error', label: t('fields.lastError'), render: (row) => row.lastError ?? '' },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t('title')}
        actions={
          <Button variant="outlined" startIcon={<Sync />} disabled={!canSync || busy} onClick={() => void sync()}>
            {t('sync')}
          </Button>
        }
      />
      <Stack direction="row" spacing={1} alignItems="center">
        <SelectFilter label={translate('app.lists.platform')} allLabel={translate('app.lists.allPlatforms')} value={list.filters.platformType} options={ENABLED_EXCHANGES.map((e) => ({ value: String(e), label: exchangeLabels[e] }))} onChange={(value) => list.setFilter('platformType', value)} />
        <FormControlLabel label={t('problemsOnly')} control={<Switch checked={list.filters.problems === 'true'} onChange={(e) => list.setFilter('problems', e.target.checked ? 'true' : '')} />} />
        <ResetButton onClick={list.reset} />
      </Stack>
      <ListTable columns={columns} rows={data} rowKey={(row) => row.customerId} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
