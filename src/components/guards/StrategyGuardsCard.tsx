import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, NumberInput, SaveButton, useCanAccess, useTranslate } from 'react-admin';
import { MAX_ALERT_AGE_LIMIT_S, MAX_SLIPPAGE_LIMIT_BPS, strategyGuardsMessages, type StrategyGuards } from '../../../contract/api/guards';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { useResultPopup } from '../ResultPopupProvider';

/** The contract's rule for a guard (a whole number from 1 to `max`, or empty), checked before the request; the server checks it again. */
const wholeUpTo = (max: number, message: string) => (value: unknown): string | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
  return ok ? undefined : message;
};
const validMaxAlertAge = wholeUpTo(MAX_ALERT_AGE_LIMIT_S, strategyGuardsMessages.maxAlertAge);
const validMaxSlippage = wholeUpTo(MAX_SLIPPAGE_LIMIT_BPS, strategyGuardsMessages.maxSlippage);

type GuardValues = { maxAlertAgeS?: number | null; maxSlippageBps?: number | null };

/**
 * A strategy's guards on its page: every staff member sees them, admins change them (the inputs are
 * read-only for the others, never hidden). Saved values come back from the server and fill the form.
 */
export function StrategyGuardsCard({ strategyId }: { strategyId: string }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.guards.${key}`, options);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const queryClient = useQueryClient();
  const key = ['strategyGuards', strategyId];
  const { canAccess } = useCanAccess({ resource: 'strategies', action: 'guard' });
  const guards = useQuery({ queryKey: key, queryFn: () => dataProvider.strategyGuards(strategyId) });
  const save = useMutation({
    mutationFn: (values: GuardValues) => dataProvider.setStrategyGuards(strategyId, { maxAlertAgeS: values.maxAlertAgeS ?? null, maxSlippageBps: values.maxSlippageBps ?? null }),
    onSuccess: (next: StrategyGuards) => {
      queryClient.setQueryData(key, next);
      showResult({ type: 'success', message: t('notifications.saved') });
    },
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.failed')) }),
  });
  const editable = canAccess === true;
  return (
    <Card variant="outlined" data-testid="strategy-guards">
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {t('title')}
        </Typography>
        {guards.data && (
          <Form record={{ id: strategyId, ...guards.data }} onSubmit={(values: GuardValues) => save.mutate(values)} noValidate>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} alignItems="flex-start">
              <NumberInput
                source="maxAlertAgeS"
                label={t('fields.maxAlertAgeS')}
                helperText={t('help.maxAlertAgeS', { seconds: guards.data.defaultMaxAlertAgeS })}
                validate={validMaxAlertAge}
                step={1}
                readOnly={!editable}
                sx={{ minWidth: 260 }}
              />
              <NumberInput
                source="maxSlippageBps"
                label={t('fields.maxSlippageBps')}
                helperText={t('help.maxSlippageBps')}
                validate={validMaxSlippage}
                step={1}
                readOnly={!editable}
                sx={{ minWidth: 260 }}
              />
              <SaveButton label={t('actions.save')} disabled={!editable || save.isPending} sx={{ mt: 1 }} />
            </Stack>
          </Form>
        )}
      </CardContent>
    </Card>
  );
}
