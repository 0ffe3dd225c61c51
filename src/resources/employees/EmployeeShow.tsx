import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import { ShowBase, useShowContext, useTranslate } from 'react-admin';
import type { Employee } from '../../../contract/api/employee';
import { genderLabels, staffPermissionLabels, type Gender } from '../../../contract/enums';
import { StatusChip } from '../../components/StatusChip';
import { formatDate } from '../../components/formatDate';
import { PageTitle } from '../../components/profile/PageTitle';
import { PasswordResetDialog } from '../../components/profile/PasswordResetDialog';
import { PersonActions } from '../../components/profile/PersonActions';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { useAccountActions } from '../../components/profile/useAccountActions';
import { linkTo } from '../../pages/routes';

function EmployeeProfile({ employee }: { employee: Employee }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.employees.${key}`);
  const { actions, password } = useAccountActions('employees', employee, linkTo('employees'));
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
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.profile')}
        home={linkTo('employees')}
        actions={
          <>
            <StatusChip status={account.status} />
            <PersonActions actions={actions} />
          </>
        }
      />
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={fields} />
        </CardContent>
      </Card>
      <PasswordResetDialog {...password} />
    </Stack>
  );
}

function EmployeeProfileView() {
  const { record, isPending } = useShowContext<Employee>();
  if (isPending) return <LinearProgress />;
  return record ? <EmployeeProfile employee={record} /> : null;
}

/** Employee profile (/employee/{id}): read-only fields and the actions (admins only). */
export function EmployeeShow() {
  return (
    <ShowBase resource="employees">
      <EmployeeProfileView />
    </ShowBase>
  );
}
