import SupportAgent from '@mui/icons-material/SupportAgent';
import type { Agent } from '../../../contract/api/agent';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { AgentCreate } from './AgentCreate';
import { AgentList } from './AgentList';
import { AgentShow } from './AgentShow';

export const agents: BackOfficeModule = {
  resource: {
    name: 'agents',
    icon: SupportAgent,
    recordRepresentation: (record: Agent) => `${record.account.firstName} ${record.account.lastName}`,
    list: AgentList,
    show: AgentShow,
    create: AgentCreate,
  },
  routes: { agents: 'list', agentShow: 'show', agentAdd: 'create' },
};
