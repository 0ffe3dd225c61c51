import People from '@mui/icons-material/People';
import type { Customer } from '../../../contract/api/customer';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { CustomerCreate } from './CustomerCreate';
import { CustomerList } from './CustomerList';
import { CustomerShow } from './CustomerShow';
import { customerEndpoints } from './endpoints';

export const customers: BackOfficeModule = {
  resource: { name: 'customers', icon: People, recordRepresentation: (record: Customer) => `${record.account.firstName} ${record.account.lastName}` },
  screens: { customers: CustomerList, customerShow: CustomerShow, customerAdd: CustomerCreate },
  endpoints: customerEndpoints,
};
