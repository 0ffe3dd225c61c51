import Login from '@mui/icons-material/Login';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { EntryAuditList } from './EntryAuditList';

export const entryAudits: BackOfficeModule = {
  resource: { name: 'entryAudits', icon: Login, list: EntryAuditList },
  routes: { entryAudit: 'list' },
};
