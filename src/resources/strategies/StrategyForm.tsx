import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { StrategyBasicsSection } from './StrategyBasicsSection';
import { StrategyFormContext } from './StrategyFormContext';
import { StrategyGroupsSection } from './StrategyGroupsSection';
import { StrategyStopLossSection } from './StrategyStopLossSection';
import { StrategyTakeProfitSection } from './StrategyTakeProfitSection';
import type { useStrategyFormState } from './useStrategyFormState';

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card variant="outlined">
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
  state: ReturnType<typeof useStrategyFormState>;
  readOnly: boolean;
  saved: boolean;
  busy: boolean;
  onSave: () => void;
  onClear: () => void;
}

/** The settings form of spec 4 and 5: sections, then Save (or Update) and Clear. */
export function StrategyForm({ state, readOnly, saved, busy, onSave, onClear }: StrategyFormProps) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  return (
    <StrategyFormContext.Provider value={{ values: state.values, errors: state.errors, change: state.change, readOnly, locked: saved }}>
      <form
        noValidate
        aria-label={t('title.form')}
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('sections.basics')}>
              <StrategyBasicsSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('sections.groups')}>
              <StrategyGroupsSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('sections.takeProfit')}>
              <StrategyTakeProfitSection />
            </Section>
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <Section title={t('sections.stopLoss')}>
              <StrategyStopLossSection />
            </Section>
          </Grid>
        </Grid>
        {!readOnly && (
          <Stack direction="row" spacing={2} sx={{ mt: 2 }}>
            <Button type="submit" variant="contained" disabled={busy}>
              {t(saved ? 'actions.update' : 'actions.save')}
            </Button>
            {!saved && (
              <Button variant="outlined" disabled={busy} onClick={onClear}>
                {t('actions.clear')}
              </Button>
            )}
          </Stack>
        )}
      </form>
    </StrategyFormContext.Provider>
  );
}
