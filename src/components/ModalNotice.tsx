import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import { useTranslate } from 'ra-core';
import type { ReactNode } from 'react';

export type NoticeType = 'success' | 'error' | 'info' | 'warning';

export interface ModalNoticeProps {
  open: boolean;
  onClose: () => void;
  message: ReactNode;
  type: NoticeType;
  title?: ReactNode;
  /** Label of the closing button; 'OK' unless given. */
  closeLabel?: string;
}

/** The modal notice of spec 2: an open flag, a close handler, a message and a type. */
export function ModalNotice({ open, onClose, message, type, title, closeLabel }: ModalNoticeProps) {
  const translate = useTranslate();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth aria-labelledby={title ? 'modal-notice-title' : undefined}>
      {title ? <DialogTitle id="modal-notice-title">{title}</DialogTitle> : null}
      <DialogContent>
        <Alert severity={type} variant="outlined" sx={{ border: 0, p: 0 }} role="alert">
          {message}
        </Alert>
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose}>
          {closeLabel ?? translate('app.components.ok')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
