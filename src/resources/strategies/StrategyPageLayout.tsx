import HomeIcon from '@mui/icons-material/Home';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import IconButton from '@mui/material/IconButton';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useCanAccess, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { StrategyGuardsCard } from '../../components/guards/StrategyGuardsCard';
import { ExecutionQualityCard } from '../../components/quality/ExecutionQualityCard';
import { PauseSwitchCard } from '../../components/switches/PauseSwitchCard';
import { useSignedInAccount } from '../../layout/AccountContext';
import { StrategyDeleteButton } from './StrategyDeleteButton';
import { StrategyManualTradeBox } from './StrategyManualTradeBox';
import { StrategyWebhookBox } from './StrategyWebhookBox';
import { strategyListPath } from './strategyPaths';
import { useLocationResult } from './useLocationResult';

/** 'Presetting Parameters': title with the home icon (and Delete), the form, the webhook box and (admins) manual trade. */
export function StrategyPageLayout({ strategy, children }: { strategy: Strategy | undefined; children: ReactNode }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  const { accountType } = useSignedInAccount();
  const { canAccess: canTrade } = useCanAccess({ resource: 'strategies', action: 'trade' });
  useLocationResult();
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <Stack direction="row" alignItems="center" spacing={1}>
        <IconButton component={Link} to={strategyListPath(accountType)} aria-label={t('actions.home')}>
          <HomeIcon />
        </IconButton>
        <Typography variant="h5" component="h1" sx={{ flexGrow: 1 }}>
          {t('title.form')}
        </Typography>
        {strategy && <StrategyDeleteButton strategy={strategy} />}
      </Stack>
      {children}
      <Card variant="outlined">
        <CardContent>
          <Typography variant="subtitle1" gutterBottom>
            {t('sections.webhook')}
          </Typography>
          <StrategyWebhookBox strategyId={strategy?.id} webhookUrl={strategy?.webhookUrl ?? undefined} hasWebhook={strategy?.hasWebhook ?? false} />
        </CardContent>
      </Card>
      {strategy && <PauseSwitchCard target={{ scope: 'strategy', id: strategy.id }} />}
      {strategy && <StrategyGuardsCard strategyId={strategy.id} />}
      {strategy && <ExecutionQualityCard strategyId={strategy.id} />}
      {canTrade === true && (
        <Card variant="outlined">
          <CardContent>
            <Typography variant="subtitle1" gutterBottom>
              {t('sections.manualTrade')}
            </Typography>
            <StrategyManualTradeBox strategyId={strategy?.id} />
          </CardContent>
        </Card>
      )}
    </Stack>
  );
}
