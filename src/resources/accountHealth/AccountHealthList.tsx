import Sync from '@mui/icons-material/Sync';
import Button from '@mui/material/Button';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import { useMutation } from '@tanstack/react-query';
import { useCanAccess, useListFilterContext, useRefresh, useTranslate } from 'react-admin';
import { ENABLED_EXCHANGES, exchangeLabels, type Exchange } from '../../../contract/enums';
import { UsdtAmount } from '../../components/UsdtAmount';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { formatDate, formatTime } from '../../components/formatDate';
import { PersonLink } from '../../components/list/LinkButtons';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SelectFilter } from '../../components/list/SelectFilter';
import { SpecList } from '../../components/list/SpecList';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import type { HealthRecord } from '../../dataProvider/resources/accountHealth';
import { linkTo } from '../../pages/routes';
import { HealthFlag } from './HealthFlag';

const FILTERS = ['platformType', 'problems'] as const;
const Column = ListColumn<HealthRecord>;
const when = (value: string | null) => (value ? `${formatDate(value)} ${formatTime(value)}` : '');

/** Syncs every connected customer now (an admin action: the area of editing customers). */
function SyncButton() {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'customers', action: 'edit' });
  const sync = useMutation({
    mutationFn: () => dataProvider.syncAccountHealth(),
    onSuccess: (done) => {
      showResult({ type: 'success', message: translate('resources.accountHealth.synced', { checked: done.checked, failed: done.failed }) });
      refresh();
    },
    onError: (error) => showResult({ type: 'error', message: errorMessage(error) }),
  });
  return (
    <Button variant="outlined" startIcon={<Sync />} disabled={canAccess !== true || sync.isPending} onClick={() => sync.mutate()}>
      {translate('resources.accountHealth.sync')}
    </Button>
  );
}

function ProblemsOnlySwitch() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListFilterContext();
  return (
    <FormControlLabel
      label={translate('resources.accountHealth.problemsOnly')}
      control={<Switch checked={filterValues.problems === 'true'} onChange={(e) => setFilters({ ...filterValues, problems: e.target.checked ? 'true' : '' }, undefined, false)} />}
    />
  );
}

/** Account Health Check (/activity/account): per customer, whether the key works, can trade, cannot withdraw, and the last sync. */
export function AccountHealthList() {
  const translate = useTranslate();
  const l = (key: string) => translate(`app.lists.${key}`);
  return (
    <SpecList resource="accountHealth" filters={FILTERS}>
      <ListHeader title={translate('resources.accountHealth.title')} actions={<SyncButton />} />
      <Stack direction="row" spacing={1} alignItems="center">
        <SelectFilter source="platformType" label={l('platform')} allLabel={l('allPlatforms')} choices={ENABLED_EXCHANGES.map((e) => ({ value: String(e), label: exchangeLabels[e] }))} />
        <ProblemsOnlySwitch />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<HealthRecord>>
        <Column label="resources.accountHealth.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column label="resources.accountHealth.fields.name" disableSort render={(row) => <PersonLink to={linkTo('customerShow', { id: row.customerId })} person={row} />} />
        <Column label="resources.accountHealth.fields.exchange" disableSort render={(row) => exchangeLabels[row.platformType as Exchange] ?? ''} />
        <Column label="resources.accountHealth.fields.apiKey" disableSort render={(row) => row.apiKey ?? ''} />
        <Column label="resources.accountHealth.fields.wallet" disableSort render={(row) => <UsdtAmount value={row.currentWalletAmount} />} />
        <Column label="resources.accountHealth.fields.keyValid" disableSort render={(row) => <HealthFlag value={row.keyValid} good />} />
        <Column label="resources.accountHealth.fields.canTrade" disableSort render={(row) => <HealthFlag value={row.canTrade} good />} />
        <Column label="resources.accountHealth.fields.canWithdraw" disableSort render={(row) => <HealthFlag value={row.canWithdraw} good={false} />} />
        <Column label="resources.accountHealth.fields.lastSyncAt" disableSort render={(row) => when(row.lastSyncAt)} />
        <Column label="resources.accountHealth.fields.lastError" disableSort long render={(row) => row.lastError ?? ''} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
