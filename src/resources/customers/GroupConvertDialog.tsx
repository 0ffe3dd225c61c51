import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { customerRoutes } from '../../../contract/api/customer';
import { CustomerGroup, customerGroupLabels } from '../../../contract/enums';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';

const GROUPS = Object.values(CustomerGroup);

/** 'Convert': moves every customer of one group to another (POST /api/customer/group/bulk). */
export function GroupConvertDialog({ allowed, onResult, onDone }: { allowed: boolean; onResult: (result: Result) => void; onDone: () => void }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState<CustomerGroup | ''>('');
  const [to, setTo] = useState<CustomerGroup | ''>('');
  const [busy, setBusy] = useState(false);
  const t = (key: string) => translate(`resources.customers.convert.${key}`);
  const submit = async () => {
    if (from === '' || to === '') return;
    setBusy(true);
    try {
      await dataProvider.call(customerRoutes.bulkGroup, { body: { originalGroup: from, finalGroup: to } });
      onResult({ type: 'success', message: translate('app.ui.strategy.groupsChanged') });
      setOpen(false);
      onDone();
    } catch (error) {
      onResult({ type: 'error', message: errorMessage(error, translate('app.ui.strategy.groupsChangeFailed')) });
    } finally {
      setBusy(false);
    }
  };
  const select = (label: string, value: CustomerGroup | '', onChange: (group: CustomerGroup) => void) => (
    <TextField select size="small" label={label} value={value} onChange={(e) => onChange(Number(e.target.value) as CustomerGroup)} fullWidth>
      {GROUPS.map((group) => (
        <MenuItem key={group} value={group}>
          {customerGroupLabels[group]}
        </MenuItem>
      ))}
    </TextField>
  );
  return (
    <>
      <Button variant="outlined" disabled={!allowed} onClick={() => setOpen(true)}>
        {t('button')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="xs" fullWidth aria-labelledby="convert-title">
        <DialogTitle id="convert-title">{t('title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            {select(t('from'), from, setFrom)}
            {select(t('to'), to, setTo)}
          </Stack>
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('app.components.cancel')}</Button>
          <Button variant="contained" disabled={busy || from === '' || to === '' || from === to} onClick={() => void submit()}>
            {t('button')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
