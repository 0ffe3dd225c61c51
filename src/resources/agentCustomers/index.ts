import Groups from '@mui/icons-material/Groups';
import type { Customer } from '../../../contract/api/customer';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { AgentCustomerList } from './AgentCustomerList';

export const agentCustomers: BackOfficeModule = {
  resource: { name: 'agentCustomers', icon: Groups, recordRepresentation: (record: Customer) => `${record.account.firstName} ${record.account.lastName}`, list: AgentCustomerList },
  routes: { agentCustomers: 'list' },
};
