import MoreVert from '@mui/icons-material/MoreVert';
import Button from '@mui/material/Button';
import Menu from '@mui/material/Menu';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import type { ScreenAccess } from '../../pages/routes';
import { ConfirmDialog } from '../ConfirmDialog';
import { useResultPopup } from '../ResultPopupProvider';
import { errorMessage } from '../../dataProvider';

/** One action of a person's profile (block, delete, approve...): what it runs and what it says. */
export interface PersonAction {
  name: string;
  label: string;
  /** `canAccess` of contract/access.ts; a refused action is shown disabled (spec 6), never hidden. */
  access: ScreenAccess;
  /** Disabled by the record's state (e.g. Block when already Blocked). */
  disabled?: boolean;
  /** The confirmation question (spec 4); none = runs at once. */
  confirm?: string;
  /** Checked before the question is asked: a message here is shown in the error popup instead. */
  check?: () => string | undefined;
  color?: 'success' | 'error';
  /** Opens a dialog of its own instead of running (the password change). */
  open?: () => void;
  /** The named dataProvider call. */
  run?: () => Promise<unknown>;
  /** The success popup's text. */
  success?: string;
  /** The error popup's text when the error carries no message. */
  failure?: string;
  /** Right after success (e.g. refresh the record). */
  onSuccess?: () => void;
  /** When the success popup is closed (e.g. return to the list after a delete). */
  afterClose?: () => void;
}

function useRunner(onDone: () => void) {
  const translate = useTranslate();
  const showResult = useResultPopup();
  return useMutation({
    mutationFn: (action: PersonAction) => (action.run ? action.run() : Promise.resolve()),
    onSuccess: (_, action) => {
      onDone();
      action.onSuccess?.();
      if (action.success) showResult({ type: 'success', message: action.success }, action.afterClose ? { onClose: action.afterClose } : undefined);
    },
    onError: (error, action) => {
      onDone();
      showResult({ type: 'error', message: errorMessage(error, action.failure ?? translate('app.ui.fallback.somethingWentWrong')) });
    },
  });
}

function ActionMenuItem({ action, busy, onChoose }: { action: PersonAction; busy: boolean; onChoose: (action: PersonAction) => void }) {
  const { canAccess } = useCanAccess(action.access);
  return (
    <MenuItem disabled={canAccess !== true || action.disabled === true || busy} onClick={() => onChoose(action)}>
      {action.label}
    </MenuItem>
  );
}

function ActionButton({ action, busy, onChoose }: { action: PersonAction; busy: boolean; onChoose: (action: PersonAction) => void }) {
  const { canAccess } = useCanAccess(action.access);
  return (
    <Button
      variant={action.color === 'success' ? 'contained' : 'outlined'}
      color={action.color ?? 'primary'}
      disabled={canAccess !== true || action.disabled === true || busy}
      onClick={() => onChoose(action)}
    >
      {action.label}
    </Button>
  );
}

/**
 * The actions of the four person profiles (customer, agent, employee, approval): a menu
 * ('Actions') or buttons; each is confirmed when it asks to, runs its dataProvider call and ends in
 * the result popup.
 */
export function PersonActions({ actions, variant = 'menu' }: { actions: PersonAction[]; variant?: 'menu' | 'buttons' }) {
  const translate = useTranslate();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [asking, setAsking] = useState<PersonAction | undefined>(undefined);
  const runner = useRunner(() => setAsking(undefined));
  const showResult = useResultPopup();
  const choose = (action: PersonAction) => {
    setAnchor(null);
    const refusal = action.check?.();
    if (refusal) showResult({ type: 'error', message: refusal });
    else if (action.open) action.open();
    else if (action.confirm) setAsking(action);
    else runner.mutate(action);
  };
  return (
    <>
      {variant === 'menu' ? (
        <>
          <Button variant="outlined" endIcon={<MoreVert />} onClick={(event) => setAnchor(event.currentTarget)}>
            {translate('app.lists.accountActions.menu')}
          </Button>
          <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
            {actions.map((action) => (
              <ActionMenuItem key={action.name} action={action} busy={runner.isPending} onChoose={choose} />
            ))}
          </Menu>
        </>
      ) : (
        <Stack direction="row" spacing={1}>
          {actions.map((action) => (
            <ActionButton key={action.name} action={action} busy={runner.isPending} onChoose={choose} />
          ))}
        </Stack>
      )}
      <ConfirmDialog
        open={asking !== undefined}
        busy={runner.isPending}
        title={asking?.confirm ?? ''}
        onCancel={() => setAsking(undefined)}
        onConfirm={() => asking && runner.mutate(asking)}
      />
    </>
  );
}
