import Alert from '@mui/material/Alert';
import Stack from '@mui/material/Stack';
import { CanAccess, CreateBase, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Strategy } from '../../../contract/api/strategy';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { PageTitle } from '../../components/profile/PageTitle';
import { errorMessage } from '../../dataProvider';
import { StrategyForm } from './StrategyForm';
import { StrategyPageLayout } from './StrategyPageLayout';
import { toStrategyInput } from './strategyFormMapping';
import { emptyStrategyForm, type StrategyFormValues } from './strategyFormValues';
import { strategyEditPath } from './strategyPaths';

/** Employees reach the preset path but only admins create strategies: say so plainly (issue 10). */
function AdminsOnlyNotice() {
  const translate = useTranslate();
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle title={translate('resources.strategies.title.form')} />
      <Alert severity="info">{translate('resources.strategies.notifications.adminsOnly')}</Alert>
    </Stack>
  );
}

function StrategyCreateView() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.notifications.${key}`);
  const navigate = useNavigate();
  const showResult = useResultPopup();
  return (
    <CreateBase<Strategy>
      resource="strategies"
      redirect={false}
      transform={(values: StrategyFormValues) => toStrategyInput(values)}
      mutationOptions={{
        onSuccess: (strategy) => navigate(strategyEditPath(strategy.id), { state: { result: { type: 'success', message: t('saved') } } }),
        onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('settingFailed')) }),
      }}
    >
      <StrategyPageLayout strategy={undefined}>
        <StrategyForm values={emptyStrategyForm} readOnly={false} saved={false} />
      </StrategyPageLayout>
    </CreateBase>
  );
}

/** 'Presetting Parameters' for a new strategy (the preset path); after a save it moves to /strategy/{id}. */
export function StrategyCreate() {
  return (
    <CanAccess resource="strategies" action="create" accessDenied={<AdminsOnlyNotice />}>
      <StrategyCreateView />
    </CanAccess>
  );
}
