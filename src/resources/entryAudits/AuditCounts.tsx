import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import { auditRoutes } from '../../../contract/api/audit';
import type { AppDataProvider } from '../../dataProvider';
import { HeaderCount } from '../common/ListHeader';

/** Entry audit: Total and Errors; exit audit: Error. */
export function AuditCounts({ kind }: { kind: 'entry' | 'exit' }) {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const { data } = useQuery({
    queryKey: ['audits', kind, 'statistics'],
    queryFn: async () => (kind === 'entry' ? dataProvider.call(auditRoutes.entryStatistics) : { total: undefined, errors: (await dataProvider.call(auditRoutes.exitStatistics)).error }),
  });
  const t = (key: string) => translate(`resources.entryAudits.counts.${key}`);
  return (
    <>
      {kind === 'entry' && <HeaderCount label={t('total')} value={data?.total} />}
      <HeaderCount label={t('errors')} value={data?.errors} color="error.main" />
    </>
  );
}
