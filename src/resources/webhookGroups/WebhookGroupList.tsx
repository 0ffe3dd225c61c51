import Stack from '@mui/material/Stack';
import Switch from '@mui/material/Switch';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useCanAccess, useGetList, useTranslate, useUpdate } from 'react-admin';
import type { WebhookGroup } from '../../../contract/api/webhookGroup';
import { WEBHOOK_GROUP_PAGE_SIZE } from '../../../contract/constants';
import { UNKNOWN_GROUP_LABEL, customerGroupLabels, type CustomerGroup } from '../../../contract/enums';
import { SkeletonRows } from '../../components/SkeletonRows';
import { formatDate, formatTime } from '../../components/formatDate';
import { NoRecords } from '../../components/list/NoRecords';

const SKELETON_ROWS = 4;
const COLUMNS = 3;

function GroupRow({ row, canEdit }: { row: WebhookGroup; canEdit: boolean }) {
  const [update, { isPending }] = useUpdate<WebhookGroup>();
  const group = customerGroupLabels[row.group as CustomerGroup] ?? UNKNOWN_GROUP_LABEL;
  // Spec 4: send the opposite of isActive, then show the answer; failures are only logged (spec 8).
  const toggle = () =>
    update('webhookGroups', { id: row.id, data: { isActive: !row.isActive }, previousData: row }, { mutationMode: 'pessimistic', onError: (error) => console.error(error) });
  return (
    <TableRow>
      <TableCell>{group}</TableCell>
      <TableCell>
        <Switch checked={row.isActive} disabled={!canEdit || isPending} onChange={toggle} slotProps={{ input: { 'aria-label': group } }} />
      </TableCell>
      <TableCell>{`${formatDate(row.datetimeUpdated)} ${formatTime(row.datetimeUpdated)}`}</TableCell>
    </TableRow>
  );
}

/**
 * 'Receive Webhook Once' (/activity/webhook): one switch per group and its 'Last Refresh'; four
 * skeleton rows while loading. Employees see the groups with the switches disabled (spec 2, 6).
 */
export function WebhookGroupList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.webhookGroups.${key}`);
  const { canAccess } = useCanAccess({ resource: 'webhookGroups', action: 'edit' });
  // Spec 8: a failed read is only logged; the table keeps what it showed (nothing, the first time).
  const { data, isPending } = useGetList<WebhookGroup>('webhookGroups', { pagination: { page: 1, perPage: WEBHOOK_GROUP_PAGE_SIZE } }, { onError: (error) => console.error(error) });
  const rows = data ?? [];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Typography variant="h5" component="h1">
        {t('title')}
      </Typography>
      <Table size="small">
        <TableHead>
          <TableRow>
            <TableCell>{t('fields.group')}</TableCell>
            <TableCell>{t('fields.isActive')}</TableCell>
            <TableCell>{t('fields.datetimeUpdated')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {isPending ? (
            <SkeletonRows rows={SKELETON_ROWS} columns={COLUMNS} />
          ) : rows.length === 0 ? (
            <TableRow>
              <TableCell colSpan={COLUMNS}>
                <NoRecords />
              </TableCell>
            </TableRow>
          ) : (
            rows.map((row) => <GroupRow key={row.id} row={row} canEdit={canAccess === true} />)
          )}
        </TableBody>
      </Table>
    </Stack>
  );
}
