import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useRefresh, useTranslate } from 'react-admin';
import { CustomerGroup, customerGroupLabels } from '../../../contract/enums';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage, useAppDataProvider } from '../../dataProvider';

const GROUPS = Object.values(CustomerGroup);

/** 'Convert': moves every customer of one group to another (a named dataProvider action); admins only. */
export function GroupConvertButton() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.convert.${key}`);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const refresh = useRefresh();
  const { canAccess } = useCanAccess({ resource: 'customers', action: 'group' });
  const [open, setOpen] = useState(false);
  const [from, setFrom] = useState<CustomerGroup | ''>('');
  const [to, setTo] = useState<CustomerGroup | ''>('');
  const convert = useMutation({
    mutationFn: ({ original, final }: { original: CustomerGroup; final: CustomerGroup }) => dataProvider.convertCustomerGroups(original, final),
    onSuccess: () => {
      setOpen(false);
      showResult({ type: 'success', message: translate('app.ui.strategy.groupsChanged') });
      refresh();
    },
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, translate('app.ui.strategy.groupsChangeFailed')) }),
  });
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
      <Button variant="outlined" disabled={canAccess !== true} onClick={() => setOpen(true)}>
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
          <Button
            variant="contained"
            disabled={convert.isPending || from === '' || to === '' || from === to}
            onClick={() => from !== '' && to !== '' && convert.mutate({ original: from, final: to })}
          >
            {t('button')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
