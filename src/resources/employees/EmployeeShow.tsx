import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDelete, useGetOne, useTranslate } from 'react-admin';
import { useNavigate, useParams } from 'react-router-dom';
import type { Employee } from '../../../contract/api/employee';
import { genderLabels, staffPermissionLabels, type Gender } from '../../../contract/enums';
import { formatDate } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { linkTo } from '../../pages/routes';
import { AccountActionsMenu } from '../common/AccountActionsMenu';
import { PageTitle } from '../common/PageTitle';
import { ReadOnlyFields } from '../common/ReadOnlyFields';
import { StatusChip } from '../common/StatusChip';
import { useCan } from '../common/useCan';

function Profile({ employee, refetch }: { employee: Employee; refetch: () => void }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.employees.${key}`);
  const navigate = useNavigate();
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [deleted, setDeleted] = useState(false);
  const [deleteOne] = useDelete<Employee>();
  const allowed = { block: useCan('employees', 'status'), delete: useCan('employees', 'delete'), password: useCan('employees', 'status') };
  const { account } = employee;
  const permission = staffPermissionLabels[account.role.accountType as keyof typeof staffPermissionLabels] ?? '';
  const fields = [
    { label: t('fields.employeeId'), value: String(employee.id) },
    { label: t('fields.firstName'), value: account.firstName },
    { label: t('fields.lastName'), value: account.lastName },
    { label: t('fields.email'), value: account.email },
    { label: t('fields.age'), value: account.age === null ? '' : String(account.age) },
    { label: t('fields.phone'), value: account.phone ?? '' },
    { label: t('fields.country'), value: account.country?.name ?? '' },
    { label: t('fields.gender'), value: account.gender ? (genderLabels[account.gender as Gender] ?? '') : '' },
    { label: t('fields.permission'), value: permission },
    { label: t('fields.since'), value: formatDate(account.datetimeInserted) },
  ];
  const remove = async () => {
    await deleteOne('employees', { id: employee.id, previousData: employee }, { returnPromise: true });
    setDeleted(true);
    setResult({ type: 'success', message: translate('app.ui.accountsSuccess.accountDeleted') });
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.profile')}
        home={linkTo('employees')}
        actions={
          <>
            <StatusChip status={account.status} label={t(`statuses.${account.status}`)} />
            <AccountActionsMenu
              accountId={account.id}
              status={account.status}
              allowed={allowed}
              texts={{ confirm: { block: t('confirm.block'), unblock: t('confirm.unblock'), delete: t('confirm.delete') }, blocked: translate('app.ui.blocking.employeeBlocked'), unblocked: translate('app.ui.blocking.employeeUnblocked') }}
              onResult={setResult}
              onChanged={refetch}
              onDelete={remove}
            />
          </>
        }
      />
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={fields} />
        </CardContent>
      </Card>
      <ResultPopup
        result={result}
        onClose={() => {
          setResult(undefined);
          if (deleted) navigate(linkTo('employees'));
        }}
      />
    </Stack>
  );
}

/** Employee profile: read-only fields and the action menu (admins only). */
export function EmployeeShow() {
  const { employeeId } = useParams();
  const { data, isPending, refetch } = useGetOne<Employee>('employees', { id: Number(employeeId) });
  if (isPending) return <LinearProgress />;
  return data ? <Profile employee={data} refetch={() => void refetch()} /> : null;
}
