import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { AgentDashboard } from './AgentDashboard';
import { StaffDashboard } from './StaffDashboard';

export const dashboards: BackOfficeModule = {
  screens: { adminDashboard: StaffDashboard, employeeDashboard: StaffDashboard, agentDashboard: AgentDashboard },
};
