import Edit from '@mui/icons-material/Edit';
import IconButton from '@mui/material/IconButton';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { useAppDataProvider } from '../../dataProvider';
import { PasswordResetDialog } from './PasswordResetDialog';

/**
 * The pencil that changes the signed-in person's own password (customers, spec 6; agents): the
 * current password first, then the new one twice. The data provider stores the new session token
 * the answer carries (the old session ends).
 */
export function OwnPasswordButton({ disabled = false }: { disabled?: boolean }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { canAccess } = useCanAccess({ resource: 'ownAccount', action: 'password' });
  const [open, setOpen] = useState(false);
  const label = translate('app.lists.password.title');
  return (
    <>
      <IconButton aria-label={label} title={label} disabled={disabled || canAccess !== true} onClick={() => setOpen(true)}>
        <Edit />
      </IconButton>
      <PasswordResetDialog askCurrent open={open} onClose={() => setOpen(false)} change={(password, current) => dataProvider.changeOwnPassword(current, password)} />
    </>
  );
}
