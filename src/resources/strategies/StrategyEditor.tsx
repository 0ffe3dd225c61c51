import DeleteIcon from '@mui/icons-material/Delete';
import HomeIcon from '@mui/icons-material/Home';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { ResultPopup } from '../../components/ResultPopup';
import { useSignedInAccount } from '../../layout/AccountContext';
import { useCan } from '../common/useCan';
import { StrategyForm } from './StrategyForm';
import { StrategyManualTradeBox } from './StrategyManualTradeBox';
import { StrategyWebhookBox } from './StrategyWebhookBox';
import { fromStrategy } from './strategyFormMapping';
import { emptyStrategyForm } from './strategyFormValues';
import { strategyListPath } from './strategyPaths';
import { useLocationResult } from './useLocationResult';
import { useStrategyActions } from './useStrategyActions';
import { useStrategyFormState } from './useStrategyFormState';

/** The settings form, webhook box, manual-trade box and delete button of one strategy (or a new one). */
export function StrategyEditor({ strategy }: { strategy: Strategy | undefined }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const { accountType } = useSignedInAccount();
  const canEdit = useCan('strategies', strategy ? 'edit' : 'create');
  const canTrade = useCan('strategies', 'trade');
  const canDelete = useCan('strategies', 'delete');
  const state = useStrategyFormState(strategy ? fromStrategy(strategy) : emptyStrategyForm);
  const [result, setResult] = useLocationResult();
  const actions = useStrategyActions(state, strategy, setResult);
  const [confirmDelete, setConfirmDelete] = useState(false);
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" alignItems="center" spacing={1}>
        <IconButton component={Link} to={strategyListPath(accountType)} aria-label={t('actions.home')}>
          <HomeIcon />
        </IconButton>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('title.form')}
        </Typography>
        {canDelete && strategy && (
          <Button color="error" variant="outlined" startIcon={<DeleteIcon />} onClick={() => setConfirmDelete(true)}>
            {t('actions.delete')}
          </Button>
        )}
      </Stack>
      <StrategyForm state={state} readOnly={!canEdit} saved={strategy !== undefined} busy={actions.busy} onSave={actions.save} onClear={actions.clear} />
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1" gutterBottom>
            {t('sections.webhook')}
          </Typography>
          <StrategyWebhookBox webhookUrl={strategy?.webhookUrl ?? undefined} hasWebhook={strategy?.hasWebhook ?? false} />
        </CardContent>
      </Card>
      {canTrade && (
        <Card variant="outlined">
          <CardContent>
            <Typography variant="subtitle1" gutterBottom>
              {t('sections.manualTrade')}
            </Typography>
            <StrategyManualTradeBox strategyId={strategy?.id} onResult={setResult} />
          </CardContent>
        </Card>
      )}
      <ConfirmDialog
        open={confirmDelete}
        busy={actions.busy}
        title={t('actions.delete')}
        content={t('confirm.delete')}
        onCancel={() => setConfirmDelete(false)}
        onConfirm={() => {
          setConfirmDelete(false);
          void actions.remove();
        }}
      />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
