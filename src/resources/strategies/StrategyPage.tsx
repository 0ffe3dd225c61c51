import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { useEffect } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import { useSignedInAccount } from '../../layout/AccountContext';
import { StrategyEditor } from './StrategyEditor';
import { strategyListPath } from './strategyPaths';
import { useStrategyRecord } from './useStrategyRecord';

/**
 * 'Presetting Parameters': create at the preset path, edit at /strategy/{id}. An unknown id shows
 * "Strategy doesn't exists." and returns to the strategy list.
 */
export function StrategyPage() {
  const { strategyId } = useParams();
  const [load] = useStrategyRecord(strategyId);
  const navigate = useNavigate();
  const translate = useTranslate();
  const { accountType } = useSignedInAccount();
  useEffect(() => {
    if (load.status !== 'missing') return;
    const timer = setTimeout(() => navigate(strategyListPath(accountType)), 1500);
    return () => clearTimeout(timer);
  }, [load.status, navigate, accountType]);
  if (load.status === 'loading') return <LinearProgress />;
  if (load.status === 'missing') return <Alert severity="error">{translate('resources.strategies.notifications.notExists')}</Alert>;
  const strategy = load.status === 'ready' ? load.strategy : undefined;
  return <StrategyEditor key={strategy?.id ?? 'new'} strategy={strategy} />;
}
