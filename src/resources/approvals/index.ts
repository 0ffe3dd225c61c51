import HowToReg from '@mui/icons-material/HowToReg';
import type { Customer } from '../../../contract/api/customer';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { ApprovalList } from './ApprovalList';
import { ApprovalShow } from './ApprovalShow';

export const approvals: BackOfficeModule = {
  resource: {
    name: 'approvals',
    icon: HowToReg,
    recordRepresentation: (record: Customer) => `${record.account.firstName} ${record.account.lastName}`,
    list: ApprovalList,
    show: ApprovalShow,
  },
  routes: { approvals: 'list', approvalShow: 'show' },
};
