import DeleteIcon from '@mui/icons-material/Delete';
import Button from '@mui/material/Button';
import { useState } from 'react';
import { useCanAccess, useDelete, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage } from '../../dataProvider';
import { useSignedInAccount } from '../../layout/AccountContext';
import { strategyListPath } from './strategyPaths';

/** Admins' Delete: after confirming, 'Strategy successfully deleted' on the strategy list. */
export function StrategyDeleteButton({ strategy }: { strategy: Strategy }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const navigate = useNavigate();
  const showResult = useResultPopup();
  const { accountType } = useSignedInAccount();
  const { canAccess } = useCanAccess({ resource: 'strategies', action: 'delete' });
  const [asking, setAsking] = useState(false);
  const [deleteOne, { isPending }] = useDelete<Strategy>();
  if (canAccess !== true) return null;
  const remove = () =>
    deleteOne(
      'strategies',
      { id: strategy.id, previousData: strategy },
      {
        mutationMode: 'pessimistic',
        onSuccess: () => navigate(strategyListPath(accountType), { state: { result: { type: 'success', message: t('notifications.deleted') } } }),
        onError: (error) => {
          setAsking(false);
          showResult({ type: 'error', message: errorMessage(error, t('notifications.deleteError')) });
        },
      },
    );
  return (
    <>
      <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={() => setAsking(true)}>
        {t('actions.delete')}
      </Button>
      <ConfirmDialog open={asking} busy={isPending} title={t('actions.delete')} content={t('confirm.delete')} onCancel={() => setAsking(false)} onConfirm={remove} />
    </>
  );
}
