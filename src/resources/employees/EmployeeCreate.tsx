import Grid from '@mui/material/Grid';
import { useMemo } from 'react';
import { useTranslate } from 'react-admin';
import { z } from 'zod';
import { AccountType, staffPermissionLabels } from '../../../contract/enums';
import { ChoiceInput } from '../../components/form/ChoiceInput';
import { PersonCreate } from '../../components/form/PersonCreate';
import { personWithPasswordSchema } from '../../components/form/personSchema';
import type { NewPerson } from '../../dataProvider/resources/agents';
import { linkTo } from '../../pages/routes';

const PERMISSIONS = [AccountType.Admin, AccountType.Employee] as const;

/** Staff Permissions: Super Admin (4) or User (3), required (spec 5). */
const employeeCreateSchema = z.object({
  account: personWithPasswordSchema.extend({
    accountType: z.union([z.literal(AccountType.Admin), z.literal(AccountType.Employee)]),
  }),
});
type EmployeeCreateValues = z.input<typeof employeeCreateSchema>;

/** Add employee (/employee/add): the data provider creates the account (type 3 or 4), then the staff member. */
export function EmployeeCreate() {
  const translate = useTranslate();
  const fields = useMemo(() => ({ 'account.accountType': { label: translate('resources.employees.fields.permission'), choice: true } }), [translate]);
  return (
    <PersonCreate
      resource="employees"
      title={translate('resources.employees.title.add')}
      listPath={linkTo('employees')}
      success={translate('app.ui.accountsSuccess.staffAdded')}
      failure={translate('app.ui.form.errorTryAgain')}
      schema={employeeCreateSchema}
      transform={(values: EmployeeCreateValues): NewPerson => ({ account: values.account })}
      fields={fields}
    >
      <Grid container>
        <Grid size={{ xs: 12, sm: 6 }}>
          <ChoiceInput
            source="account.accountType"
            label={translate('resources.employees.fields.permission')}
            choices={PERMISSIONS.map((type) => ({ id: type, name: staffPermissionLabels[type] }))}
          />
        </Grid>
      </Grid>
    </PersonCreate>
  );
}
