import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { zodResolver } from '@hookform/resolvers/zod';
import { useMemo, type ReactNode } from 'react';
import { Form, SaveButton, useTranslate } from 'react-admin';
import { PopupOnInvalidSubmit } from '../../components/form/PopupOnInvalidSubmit';
import { StrategyBasicsSection } from './StrategyBasicsSection';
import { StrategyClearButton } from './StrategyClearButton';
import { StrategyFormContext } from './StrategyFormContext';
import { StrategyGroupsSection } from './StrategyGroupsSection';
import { StrategyStopLossSection } from './StrategyStopLossSection';
import { StrategyTakeProfitSection } from './StrategyTakeProfitSection';
import { strategyFormSchema } from './strategyFormSchema';
import type { StrategyFormValues } from './strategyFormValues';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {title}
        </Typography>
        {children}
      </CardContent>
    </Card>
  );
}

export interface StrategyFormProps {
  /** The form's starting values (memoised by the caller: a new object resets the form). */
  values: StrategyFormValues;
  readOnly: boolean;
  /** Saved strategies lock all but groups and stop loss, and are checked with the update schema. */
  saved: boolean;
}

/**
 * The settings form of spec 4 and 5 on react-admin's <Form>, validated by the contract's schema
 * through zodResolver; saving goes to the surrounding CreateBase / EditBase. Save (or Update) and Clear.
 */
export function StrategyForm({ values, readOnly, saved }: StrategyFormProps) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  // `raw`: the form sends what was typed; the server parses it with the same schema.
  const resolver = useMemo(() => zodResolver(strategyFormSchema(saved), undefined, { raw: true }), [saved]);
  return (
    <StrategyFormContext.Provider value={{ readOnly, locked: saved }}>
      <Form<StrategyFormValues> record={values} resolver={resolver} disableInvalidFormNotification noValidate>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, lg: 6 }}>
            <Section title={t('sections.basics')}>
              <StrategyBasicsSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <Section title={t('sections.groups')}>
              <StrategyGroupsSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <Section title={t('sections.takeProfit')}>
              <StrategyTakeProfitSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, lg: 6 }}>
            <Section title={t('sections.stopLoss')}>
              <StrategyStopLossSection />
            </Section>
          </Grid>
        </Grid>
        {!readOnly && (
          <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
            <SaveButton label={t(saved ? 'actions.update' : 'actions.save')} alwaysEnable />
            {!saved && <StrategyClearButton />}
          </Stack>
        )}
        <PopupOnInvalidSubmit message={t('notifications.settingFailedDetail')} />
      </Form>
    </StrategyFormContext.Provider>
  );
}
