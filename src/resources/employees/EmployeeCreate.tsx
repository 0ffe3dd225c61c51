import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { accountRoutes } from '../../../contract/api/account';
import { employeeRoutes } from '../../../contract/api/employee';
import { AccountType, staffPermissionLabels } from '../../../contract/enums';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { PersonCreatePage } from '../common/PersonCreatePage';
import { accountBody } from '../common/personForm';

const PERMISSIONS = [AccountType.Admin, AccountType.Employee] as const;

/** Add employee: Staff Permissions Super Admin (4) or User (3); POST /api/account, then POST /api/employee. */
export function EmployeeCreate() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const [permission, setPermission] = useState<(typeof PERMISSIONS)[number] | ''>('');
  const [missing, setMissing] = useState(false);
  return (
    <PersonCreatePage
      title={translate('resources.employees.title.add')}
      listPath={linkTo('employees')}
      successMessage={translate('app.ui.accountsSuccess.staffAdded')}
      failureMessage={translate('app.ui.form.errorTryAgain')}
      extraErrors={() => {
        setMissing(permission === '');
        const errors: Record<string, string> = permission === '' ? { permission: 'required' } : {};
        return errors;
      }}
      extra={
        <TextField select size="small" sx={{ maxWidth: 300 }} required label={translate('resources.employees.fields.permission')} value={permission} error={missing} onChange={(e) => setPermission(Number(e.target.value) as (typeof PERMISSIONS)[number])}>
          {PERMISSIONS.map((type) => (
            <MenuItem key={type} value={type}>
              {staffPermissionLabels[type]}
            </MenuItem>
          ))}
        </TextField>
      }
      create={async (person) => {
        if (permission === '') return;
        const account = await dataProvider.call(accountRoutes.create, { body: accountBody(person, permission) });
        await dataProvider.call(employeeRoutes.create, { body: { accountId: account.id } });
      }}
    />
  );
}
