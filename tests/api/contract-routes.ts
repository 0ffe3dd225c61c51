import { accountRoutes } from '../../contract/api/account';
import { accountHealthRoutes } from '../../contract/api/accountHealth';
import { agentRoutes } from '../../contract/api/agent';
import { auditRoutes } from '../../contract/api/audit';
import { countryRoutes } from '../../contract/api/country';
import { customerRoutes } from '../../contract/api/customer';
import { earningsRoutes } from '../../contract/api/earnings';
import { employeeRoutes } from '../../contract/api/employee';
import { exchangeRoutes } from '../../contract/api/exchange';
import { guardRoutes } from '../../contract/api/guards';
import { orderRoutes } from '../../contract/api/order';
import { qualityRoutes } from '../../contract/api/quality';
import { resultsRoutes } from '../../contract/api/results';
import { registrationIdRoutes } from '../../contract/api/registrationId';
import { strategyRoutes } from '../../contract/api/strategy';
import { switchRoutes } from '../../contract/api/switches';
import { webhookRoutes } from '../../contract/api/webhook';
import { webhookGroupRoutes } from '../../contract/api/webhookGroup';
import type { RouteDef } from '../../contract/route';

/** Every route the contract defines, each once. */
export const contractRoutes: RouteDef[] = [
  accountRoutes,
  accountHealthRoutes,
  agentRoutes,
  auditRoutes,
  countryRoutes,
  customerRoutes,
  earningsRoutes,
  employeeRoutes,
  exchangeRoutes,
  guardRoutes,
  orderRoutes,
  qualityRoutes,
  resultsRoutes,
  registrationIdRoutes,
  strategyRoutes,
  switchRoutes,
  webhookRoutes,
  webhookGroupRoutes,
].flatMap((routes) => Object.values(routes) as RouteDef[]);

/** `/api/customer/:id` as the OpenAPI document writes it: `/api/customer/{id}`. */
export const openApiPathOf = (path: string) => path.replace(/:([A-Za-z]+)/g, '{$1}');
