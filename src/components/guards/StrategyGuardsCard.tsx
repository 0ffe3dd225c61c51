import { useTranslate } from 'react-admin';
import { MAX_ALERT_AGE_LIMIT_S, MAX_SLIPPAGE_LIMIT_BPS, strategyGuardsMessages, type StrategyGuards } from '../../../contract/api/guards';
import { useAppDataProvider } from '../../dataProvider';
import { GuardsCard } from './GuardsCard';

/** A strategy's guards on its page: the maximum age of its alerts and the maximum slippage of its entries. */
export function StrategyGuardsCard({ strategyId }: { strategyId: string }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.guards.${key}`, options);
  const dataProvider = useAppDataProvider();
  const queryKey = ['strategyGuards', strategyId];
  return (
    <GuardsCard<'maxAlertAgeS' | 'maxSlippageBps', StrategyGuards>
      testId="strategy-guards"
      resource="strategies"
      queryKey={queryKey}
      read={() => dataProvider.strategyGuards(strategyId)}
      save={(values) => dataProvider.setStrategyGuards(strategyId, values)}
      fields={[
        {
          source: 'maxAlertAgeS',
          label: t('fields.maxAlertAgeS'),
          help: (guards) => t('help.maxAlertAgeS', { seconds: guards.defaultMaxAlertAgeS }),
          max: MAX_ALERT_AGE_LIMIT_S,
          message: strategyGuardsMessages.maxAlertAge,
        },
        { source: 'maxSlippageBps', label: t('fields.maxSlippageBps'), help: t('help.maxSlippageBps'), max: MAX_SLIPPAGE_LIMIT_BPS, message: strategyGuardsMessages.maxSlippage },
      ]}
    />
  );
}
