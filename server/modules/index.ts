import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { registerAccountRoutes } from './accounts/routes';
import { registerAgentRoutes } from './agents/routes';
import { registerAuthRoutes } from './auth/routes';
import { registerCountryRoutes } from './countries/routes';
import { registerCustomerRoutes } from './customers/routes';
import { registerEarningsRoutes } from './earnings/routes';
import { registerStrategyRoutes } from './strategies/routes';
import { registerOrderRoutes } from './orders/routes';
import { registerAuditRoutes } from './audits/routes';
import { registerWebhookGroupRoutes } from './webhook-groups/routes';
import { registerNotificationRoutes } from './notifications/routes';
import { registerEmployeeRoutes } from './employees/routes';
import { registerRegistrationIdRoutes } from './registration-ids/routes';
import { registerWebhookRoutes } from './webhooks/routes';
import { registerAccountHealthRoutes } from './account-health/routes';
import { registerExchangeConnectRoutes } from './exchange-connect/routes';
import { registerSwitchRoutes } from './switches/routes';
import { registerGuardRoutes } from './guards/routes';
import { registerQualityRoutes } from './quality/routes';
import { registerResultsRoutes } from './results/routes';

export type RouteModule = (app: FastifyInstance, deps: Deps) => void | Promise<void>;

/** Every domain module of the API, in registration order. */
export const routeModules: RouteModule[] = [registerAuthRoutes, registerAccountRoutes, registerCountryRoutes, registerCustomerRoutes, registerEarningsRoutes, registerStrategyRoutes, registerOrderRoutes, registerAuditRoutes, registerWebhookGroupRoutes, registerNotificationRoutes, registerAgentRoutes, registerEmployeeRoutes, registerRegistrationIdRoutes, registerWebhookRoutes, registerAccountHealthRoutes, registerExchangeConnectRoutes, registerSwitchRoutes, registerGuardRoutes, registerQualityRoutes, registerResultsRoutes];
