import Switch from '@mui/material/Switch';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { webhookGroupRoutes, type WebhookGroup } from '../../../contract/api/webhookGroup';
import { WEBHOOK_GROUP_PAGE_SIZE } from '../../../contract/constants';
import { UNKNOWN_GROUP_LABEL, customerGroupLabels, type CustomerGroup } from '../../../contract/enums';
import { SkeletonRows } from '../../components/SkeletonRows';
import { formatDate, formatTime } from '../../components/formatDate';
import type { AppDataProvider } from '../../dataProvider';
import { useCan } from '../common/useCan';

const KEY = ['webhookGroups', 'all'];

/** 'Receive Webhook Once': one switch per group and its 'Last Refresh'; four skeleton rows while loading. */
export function WebhookGroupList() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.webhookGroups.${key}`);
  const dataProvider = useDataProvider<AppDataProvider>();
  const queryClient = useQueryClient();
  const canEdit = useCan('webhookGroups', 'edit');
  const { data, isPending } = useQuery({ queryKey: KEY, queryFn: () => dataProvider.call(webhookGroupRoutes.list, { query: { pageIndex: 0, pageSize: WEBHOOK_GROUP_PAGE_SIZE } }) });
  const toggle = async (row: WebhookGroup) => {
    try {
      const updated = await dataProvider.call(webhookGroupRoutes.update, { params: { id: row.id }, body: { isActive: !row.isActive } });
      queryClient.setQueryData(KEY, (current: typeof data) =>
        current ? { ...current, data: current.data.map((item) => (item.id === row.id ? { ...item, isActive: updated.isActive, datetimeUpdated: updated.datetimeUpdated } : item)) } : current,
      );
    } catch (error) {
      // Spec 8: webhook failures are only logged and the list stays as it was.
      console.error(error);
    }
  };
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
            <SkeletonRows rows={4} columns={3} />
          ) : (
            (data?.data ?? []).map((row) => {
              const group = customerGroupLabels[row.group as CustomerGroup] ?? UNKNOWN_GROUP_LABEL;
              return (
                <TableRow key={row.id}>
                  <TableCell>{group}</TableCell>
                  <TableCell>
                    <Switch checked={row.isActive} disabled={!canEdit} onChange={() => void toggle(row)} slotProps={{ input: { 'aria-label': group } }} />
                  </TableCell>
                  <TableCell>{`${formatDate(row.datetimeUpdated)} ${formatTime(row.datetimeUpdated)}`}</TableCell>
                </TableRow>
              );
            })
          )}
        </TableBody>
      </Table>
    </Stack>
  );
}
