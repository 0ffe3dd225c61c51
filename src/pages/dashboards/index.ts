import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { AgentDashboard } from './AgentDashboard';
import { CustomerDashboard } from './CustomerDashboard';
import { StaffDashboard } from './StaffDashboard';

/** The landing pages of each role: pages, not views of a resource. */
export const dashboards: BackOfficeModule = {
  screens: { adminDashboard: StaffDashboard, employeeDashboard: StaffDashboard, agentDashboard: AgentDashboard, customerDashboard: CustomerDashboard },
};
