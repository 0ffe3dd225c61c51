import MoreVert from '@mui/icons-material/MoreVert';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { accountRoutes } from '../../../contract/api/account';
import { AccountStatus } from '../../../contract/enums';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';
import { PasswordResetDialog } from './PasswordResetDialog';

type Action = 'block' | 'unblock' | 'delete';

export interface AccountActionTexts {
  /** Confirmation questions of spec 4. */
  confirm: Record<Action, string>;
  blocked: string;
  unblocked: string;
}

export interface AccountActionsMenuProps {
  accountId: number;
  status: number;
  /** From canAccess: block/unblock, delete and password; disabled (not hidden) when false. */
  allowed: { block: boolean; delete: boolean; password: boolean };
  texts: AccountActionTexts;
  onResult: (result: Result) => void;
  onChanged: () => void;
  /** Deletes the record (each kind of account has its own endpoint); the page then returns to its list. */
  onDelete: () => Promise<void>;
}

/** Block, Unblock, Delete Account and Change Password of a profile, each confirmed first. */
export function AccountActionsMenu(props: AccountActionsMenuProps) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [asking, setAsking] = useState<Action | undefined>(undefined);
  const [password, setPassword] = useState(false);
  const [busy, setBusy] = useState(false);
  const t = (key: string) => translate(`app.lists.accountActions.${key}`);
  const run = async (action: Action) => {
    setBusy(true);
    try {
      if (action === 'delete') {
        await props.onDelete();
      } else {
        const status = action === 'block' ? AccountStatus.Blocked : AccountStatus.Active;
        await dataProvider.call(accountRoutes.changeStatus, { params: { accountId: props.accountId }, body: { status } });
        props.onResult({ type: 'success', message: action === 'block' ? props.texts.blocked : props.texts.unblocked });
        props.onChanged();
      }
    } catch (error) {
      props.onResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.somethingWentWrong')) });
    } finally {
      setBusy(false);
      setAsking(undefined);
    }
  };
  const choose = (action: Action | 'password') => {
    setAnchor(null);
    if (action === 'password') setPassword(true);
    else setAsking(action);
  };
  return (
    <>
      <Button variant="outlined" endIcon={<MoreVert />} onClick={(e) => setAnchor(e.currentTarget)}>
        {t('menu')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        <MenuItem disabled={!props.allowed.block || props.status === AccountStatus.Blocked} onClick={() => choose('block')}>
          {t('block')}
        </MenuItem>
        <MenuItem disabled={!props.allowed.block || props.status === AccountStatus.Active} onClick={() => choose('unblock')}>
          {t('unblock')}
        </MenuItem>
        <MenuItem disabled={!props.allowed.delete} onClick={() => choose('delete')}>
          {t('delete')}
        </MenuItem>
        <MenuItem disabled={!props.allowed.password} onClick={() => choose('password')}>
          {t('changePassword')}
        </MenuItem>
      </Menu>
      <ConfirmDialog
        open={asking !== undefined}
        busy={busy}
        title={asking ? props.texts.confirm[asking] : ''}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => asking && void run(asking)}
      />
      <PasswordResetDialog accountId={props.accountId} open={password} onClose={() => setPassword(false)} onResult={props.onResult} />
    </>
  );
}
