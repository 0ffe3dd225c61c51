import type { StringMap } from 'ra-core';
import { accountHealthMessages } from './accountHealth';
import { agentsMessages } from './agents';
import { customersMessages } from './customers';
import { dashboardMessages } from './dashboards';
import { employeesMessages } from './employees';
import { entryAuditsMessages } from './entryAudits';
import { listMessages } from './lists';
import { ordersMessages } from './orders';
import { registrationIdsMessages } from './registrationIds';
import { strategiesMessages } from './strategies';
import { switchesMessages } from './switches';
import { guardsMessages } from './guards';
import { qualityMessages } from './quality';
import { resultsMessages } from './results';
import { webhookGroupsMessages } from './webhookGroups';

/**
 * Texts of the resource screens and dashboards, one file per resource in this folder
 * (e.g. `./strategies.ts` exporting `strategiesMessages`). Add each one here:
 *   resourceMessages: react-admin's `resources.<name>.{name,fields,filters,notifications,...}`;
 *   screenMessages: extra keys merged under `app.*` (pick a namespace of your own, e.g. `dashboards`).
 */
export const resourceMessages: StringMap = {
  strategies: strategiesMessages,
  orders: ordersMessages,
  customers: customersMessages,
  agents: agentsMessages,
  employees: employeesMessages,
  registrationIds: registrationIdsMessages,
  webhookGroups: webhookGroupsMessages,
  entryAudits: entryAuditsMessages,
  accountHealth: accountHealthMessages,
};

export const screenMessages: StringMap = {
  lists: listMessages,
  dashboards: dashboardMessages,
  switches: switchesMessages,
  guards: guardsMessages,
  quality: qualityMessages,
  results: resultsMessages,
};
