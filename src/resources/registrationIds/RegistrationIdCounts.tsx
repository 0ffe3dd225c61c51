import { useTranslate } from 'react-admin';
import { HeaderCount } from '../../components/list/ListHeader';
import { StatisticsFailed } from '../../components/statistics/StatisticsFailed';
import { useStatistics } from '../../components/statistics/useStatistics';
import { useAppDataProvider } from '../../dataProvider';

/** Registered(n), Pending(n) and Expired(n) of the agent's registration IDs. */
export function RegistrationIdCounts() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.registrationIds.counts.${key}`);
  const dataProvider = useAppDataProvider();
  const { data, isError } = useStatistics(['registrationIds', 'statistics'], () => dataProvider.getRegistrationIdStatistics());
  if (isError) return <StatisticsFailed />;
  return (
    <>
      <HeaderCount label={t('registered')} value={data?.used} color="success.main" />
      <HeaderCount label={t('pending')} value={data?.pending} color="warning.main" />
      <HeaderCount label={t('expired')} value={data?.expired} />
    </>
  );
}
