import { useListContext, useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';
import type { AuditKind } from '../../dataProvider/resources/audits';

/**
 * Entry audit: Total (the rows the list holds with its filters, so the count always agrees with
 * the table) and Errors; exit audit: Error. The statistics' own `total` counts entries attempted,
 * which are not rows of this list.
 */
export function AuditCounts({ kind }: { kind: AuditKind }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { total } = useListContext();
  const { data, isError } = useStatistics(['audits', kind, 'statistics'], () => dataProvider.getAuditStatistics(kind));
  const t = (key: string) => translate(`resources.entryAudits.counts.${key}`);
  if (isError) return <StatisticsFailed />;
  return (
    <>
      {kind === 'entry' && <HeaderCount label={t('total')} value={total} />}
      <HeaderCount label={t('errors')} value={data?.errors} color="error.main" />
    </>
  );
}
