import { useState } from 'react';
import { useDelete, useRefresh, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Account } from '../../../contract/api/account';
import { AccountStatus } from '../../../contract/enums';
import { useAppDataProvider } from '../../dataProvider';
import { useSignedInAccount } from '../../layout/AccountContext';
import type { PersonAction } from './PersonActions';

type PersonResource = 'customers' | 'agents' | 'employees';

/**
 * Block, Unblock, Delete Account and Change Password of a customer, agent or employee profile
 * (on one's own profile the password dialog asks for the current one).
 * Texts come from `resources.<resource>.{actions,confirm,notifications}`; after a delete the page
 * returns to `listPath` when the popup is closed. Render `passwordDialog` next to the actions.
 */
export function useAccountActions(resource: PersonResource, record: { id: number; account: Pick<Account, 'id' | 'status'> }, listPath: string) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.${resource}.${key}`);
  const dataProvider = useAppDataProvider();
  const refresh = useRefresh();
  const navigate = useNavigate();
  const [deleteOne] = useDelete();
  const [passwordOpen, setPasswordOpen] = useState(false);
  const { status, id: accountId } = record.account;
  // One's own account is never blocked or deleted from its profile (the server refuses it too):
  // the last admin could otherwise lock everyone out.
  const own = useSignedInAccount().account.id === accountId;
  const actions: PersonAction[] = [
    {
      name: 'block',
      label: t('actions.block'),
      access: { resource, action: 'block' },
      disabled: own || status === AccountStatus.Blocked,
      confirm: t('confirm.block'),
      run: () => dataProvider.blockAccount(accountId),
      success: t('notifications.blocked'),
      onSuccess: refresh,
    },
    {
      name: 'unblock',
      label: t('actions.unblock'),
      access: { resource, action: 'block' },
      disabled: own || status === AccountStatus.Active,
      confirm: t('confirm.unblock'),
      run: () => dataProvider.unblockAccount(accountId),
      success: t('notifications.unblocked'),
      onSuccess: refresh,
    },
    {
      name: 'delete',
      label: t('actions.delete'),
      access: { resource, action: 'delete' },
      disabled: own,
      confirm: t('confirm.delete'),
      run: () => deleteOne(resource, { id: record.id, previousData: record }, { mutationMode: 'pessimistic', returnPromise: true }),
      success: t('notifications.deleted'),
      failure: t('notifications.deleteFailed'),
      afterClose: () => navigate(listPath),
    },
    {
      name: 'password',
      label: t('actions.changePassword'),
      access: { resource, action: 'password' },
      // Spec 6: a customer's password-change is disabled while the account is Pending.
      disabled: status === AccountStatus.Pending,
      open: () => setPasswordOpen(true),
    },
  ];
  return {
    actions,
    password: {
      open: passwordOpen,
      onClose: () => setPasswordOpen(false),
      // One's own password (an admin on their own profile) is changed with the current one, like
      // every role's own (the server refuses setting it as someone else's).
      askCurrent: own,
      change: (password: string, current: string) => (own ? dataProvider.changeOwnPassword(current, password) : dataProvider.resetPasswordOf(accountId, password)),
    },
  };
}
