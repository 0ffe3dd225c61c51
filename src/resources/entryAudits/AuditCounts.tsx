import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';
import type { AuditKind } from '../../dataProvider/resources/audits';

/** Entry audit: Total and Errors; exit audit: Error. */
export function AuditCounts({ kind }: { kind: AuditKind }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(['audits', kind, 'statistics'], () => dataProvider.getAuditStatistics(kind));
  const t = (key: string) => translate(`resources.entryAudits.counts.${key}`);
  if (isError) return <StatisticsFailed />;
  return (
    <>
      {kind === 'entry' && <HeaderCount label={t('total')} value={data?.total} />}
      <HeaderCount label={t('errors')} value={data?.errors} color="error.main" />
    </>
  );
}
