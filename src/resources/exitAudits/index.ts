import Logout from '@mui/icons-material/Logout';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { ExitAuditList } from './ExitAuditList';

export const exitAudits: BackOfficeModule = {
  resource: { name: 'exitAudits', icon: Logout, list: ExitAuditList },
  routes: { exitAudit: 'list' },
};
