import type { BackOfficeModule } from '../layout/backOfficeModule';
import { dashboards } from '../pages/dashboards';
import { accountHealth } from './accountHealth';
import { agentCustomers } from './agentCustomers';
import { agents } from './agents';
import { approvals } from './approvals';
import { customerSelf, customerSelfStrategies } from './customerSelf';
import { customers } from './customers';
import { employees } from './employees';
import { entryAudits } from './entryAudits';
import { exitAudits } from './exitAudits';
import { orders } from './orders';
import { registrationIds } from './registrationIds';
import { strategies } from './strategies';
import { webhookGroups } from './webhookGroups';

/**
 * The back office's table of contents: one line per resource folder (and the dashboards), e.g.
 *   import { accountHealth } from './accountHealth';
import { agentCustomers } from './agentCustomers';
import { agents } from './agents';
import { approvals } from './approvals';
import { customerSelf, customerSelfStrategies } from './customerSelf';
import { customers } from './customers';
import { employees } from './employees';
import { entryAudits } from './entryAudits';
import { exitAudits } from './exitAudits';
import { orders } from './orders';
import { registrationIds } from './registrationIds';
import { strategies } from './strategies';
import { webhookGroups } from './webhookGroups';
 *   export const backOfficeModules: BackOfficeModule[] = [strategies, orders, ...];
 * See src/README.md.
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
  webhookGroups,
  entryAudits,
  exitAudits,
  agentCustomers,
  customerSelf,
  customerSelfStrategies,
  accountHealth,
];
