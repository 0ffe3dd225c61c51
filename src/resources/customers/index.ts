import People from '@mui/icons-material/People';
import type { Customer } from '../../../contract/api/customer';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { CustomerCreate } from './CustomerCreate';
import { CustomerList } from './CustomerList';
import { CustomerShow } from './CustomerShow';

export const customers: BackOfficeModule = {
  resource: {
    name: 'customers',
    icon: People,
    recordRepresentation: (record: Customer) => `${record.account.firstName} ${record.account.lastName}`,
    list: CustomerList,
    show: CustomerShow,
    create: CustomerCreate,
  },
  routes: { customers: 'list', customerShow: 'show', customerAdd: 'create' },
};
