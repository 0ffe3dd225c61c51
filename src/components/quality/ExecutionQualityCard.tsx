import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { downloadCSV, useTranslate } from 'react-admin';
import type { StrategyQuality } from '../../../contract/api/quality';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { useResultPopup } from '../ResultPopupProvider';
import { qualityCsv } from './qualityCsv';

const QualityChart = lazy(() => import('./QualityChart'));
const DAYS = 30;

const ms = (value: number | null) => (value === null ? '-' : `${Math.round(value).toLocaleString('en-US')} ms`);
const bps = (value: number | null) => (value === null ? '-' : `${value.toFixed(1)} bp`);

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack sx={{ minWidth: 160 }}>
      <Typography variant="caption" color="text.secondary">
        {label}
      </Typography>
      <Typography variant="body1">{value}</Typography>
    </Stack>
  );
}

function Figures({ quality }: { quality: StrategyQuality }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.quality.figures.${key}`);
  const rate = quality.fillRate === null ? '-' : `${(quality.fillRate * 100).toFixed(1)} %`;
  return (
    <Stack direction="row" spacing={3} useFlexGap flexWrap="wrap" sx={{ mb: 2 }}>
      <Figure label={t('executions')} value={String(quality.executions)} />
      <Figure label={t('fillRate')} value={rate} />
      <Figure label={t('ack')} value={`${ms(quality.p50AckMs)} / ${ms(quality.p95AckMs)}`} />
      <Figure label={t('fill')} value={`${ms(quality.p50FillMs)} / ${ms(quality.p95FillMs)}`} />
      <Figure label={t('slippage')} value={`${bps(quality.meanSlippageBps)} / ${bps(quality.p95SlippageBps)}`} />
    </Stack>
  );
}

/** A strategy's execution quality over the last 30 days (issue 29), for staff: figures, a chart per day, skips by reason, CSV export. */
export function ExecutionQualityCard({ strategyId }: { strategyId: string }) {
  const translate = useTranslate();
  const t = (key: string, options?: Record<string, unknown>) => translate(`app.quality.${key}`, options);
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  const quality = useQuery({ queryKey: ['strategyQuality', strategyId, DAYS], queryFn: () => dataProvider.strategyQuality(strategyId, DAYS) });
  const exportRows = async () => {
    try {
      downloadCSV(qualityCsv(await dataProvider.strategyQualityRows(strategyId, DAYS)), `execution-quality-${strategyId}`);
    } catch (error) {
      showResult({ type: 'error', message: errorMessage(error, t('failed')) });
    }
  };
  const data = quality.data;
  return (
    <Card variant="outlined" data-testid="execution-quality">
      <CardContent>
        <Stack direction="row" alignItems="center" spacing={2} sx={{ mb: 1 }}>
          <Typography variant="subtitle1" sx={{ flexGrow: 1 }}>
            {t('title')} · {t('period', { days: DAYS })}
          </Typography>
          <Button size="small" variant="outlined" disabled={!data || data.executions === 0} onClick={() => void exportRows()}>
            {t('actions.export')}
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
          {t('explain')}
        </Typography>
        {data && (data.executions === 0 ? <Typography variant="body2">{t('none')}</Typography> : <Figures quality={data} />)}
        {data && data.daily.length > 1 && (
          <Suspense fallback={null}>
            <QualityChart daily={data.daily} labels={{ p50: t('chart.p50'), p95: t('chart.p95') }} />
          </Suspense>
        )}
        {data && (
          <Typography variant="body2" component="div" sx={{ mt: 1 }}>
            {t('skipped')}: {data.skipped.length === 0 ? t('noSkips') : data.skipped.map((skip) => `${skip.reason} ${skip.count}`).join(', ')}
          </Typography>
        )}
      </CardContent>
    </Card>
  );
}
