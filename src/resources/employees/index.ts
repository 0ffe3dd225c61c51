import Badge from '@mui/icons-material/Badge';
import type { Employee } from '../../../contract/api/employee';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { EmployeeCreate } from './EmployeeCreate';
import { EmployeeList } from './EmployeeList';
import { EmployeeShow } from './EmployeeShow';

export const employees: BackOfficeModule = {
  resource: {
    name: 'employees',
    icon: Badge,
    recordRepresentation: (record: Employee) => `${record.account.firstName} ${record.account.lastName}`,
    list: EmployeeList,
    show: EmployeeShow,
    create: EmployeeCreate,
  },
  routes: { employees: 'list', employeeShow: 'show', employeeAdd: 'create' },
};
