import type { BackOfficeModule } from '../layout/backOfficeModule';
import { dashboards } from '../pages/dashboards';
import { accountHealth } from './accountHealth';
import { agentCustomers } from './agentCustomers';
import { agents } from './agents';
import { approvals } from './approvals';
import { customerOrders, customerStrategies } from './customerSelf';
import { customers } from './customers';
import { employees } from './employees';
import { entryAudits } from './entryAudits';
import { exitAudits } from './exitAudits';
import { orders } from './orders';
import { registrationIds } from './registrationIds';
import { strategies } from './strategies';
import { webhookGroups } from './webhookGroups';

/**
 * The back office's table of contents: one module per resource (its <Resource> and the spec URLs
 * of its views), plus the dashboards. Add a resource folder's module here; see src/README.md.
 */
export const backOfficeModules: BackOfficeModule[] = [
  dashboards,
  strategies,
  orders,
  customers,
  approvals,
  agents,
  employees,
  registrationIds,
  agentCustomers,
  webhookGroups,
  entryAudits,
  exitAudits,
  accountHealth,
  customerOrders,
  customerStrategies,
];
