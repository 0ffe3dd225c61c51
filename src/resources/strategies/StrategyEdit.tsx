import Alert from '@mui/material/Alert';
import LinearProgress from '@mui/material/LinearProgress';
import { useEffect, useMemo } from 'react';
import { CanAccess, EditBase, ShowBase, useEditContext, useShowContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { errorMessage } from '../../dataProvider';
import { useSignedInAccount } from '../../layout/AccountContext';
import { StrategyForm } from './StrategyForm';
import { StrategyPageLayout } from './StrategyPageLayout';
import { fromStrategy, toStrategyUpdateInput } from './strategyFormMapping';
import type { StrategyFormValues } from './strategyFormValues';
import { strategyListPath } from './strategyPaths';

const NOT_FOUND_NOTICE_MS = 1500;

/** "Strategy doesn't exists." then back to the strategy list (spec 8). */
function StrategyMissing() {
  const translate = useTranslate();
  const navigate = useNavigate();
  const { accountType } = useSignedInAccount();
  useEffect(() => {
    const timer = setTimeout(() => navigate(strategyListPath(accountType)), NOT_FOUND_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [navigate, accountType]);
  return <Alert severity="error">{translate('resources.strategies.notifications.notExists')}</Alert>;
}

function StrategyPage({ record, isPending, error, editable }: { record: Strategy | undefined; isPending: boolean; error: unknown; editable: boolean }) {
  const values = useMemo(() => (record ? fromStrategy(record) : undefined), [record]);
  if (isPending) return <LinearProgress />;
  if (error || !record || !values) return <StrategyMissing />;
  return (
    <StrategyPageLayout strategy={record}>
      <StrategyForm values={values} readOnly={!editable} saved />
    </StrategyPageLayout>
  );
}

function EditablePage() {
  const { record, isPending, error } = useEditContext<Strategy>();
  return <StrategyPage record={record} isPending={isPending} error={error} editable />;
}

function ReadOnlyPage() {
  const { record, isPending, error } = useShowContext<Strategy>();
  return <StrategyPage record={record} isPending={isPending} error={error} editable={false} />;
}

function StrategyEditView() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.notifications.${key}`);
  const showResult = useResultPopup();
  return (
    <EditBase<Strategy>
      resource="strategies"
      mutationMode="pessimistic"
      redirect={false}
      redirectOnError={false}
      transform={(values: StrategyFormValues) => toStrategyUpdateInput(values)}
      mutationOptions={{
        onSuccess: () => showResult({ type: 'success', message: t('updated') }),
        onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('settingFailed')) }),
      }}
    >
      <EditablePage />
    </EditBase>
  );
}

/** The saved strategy at /strategy/{id}: admins edit groups and stop loss; employees see it read-only (spec 6). */
export function StrategyEdit() {
  return (
    <CanAccess resource="strategies" action="edit" accessDenied={<ShowBase resource="strategies" redirectOnError={false}><ReadOnlyPage /></ShowBase>}>
      <StrategyEditView />
    </CanAccess>
  );
}
