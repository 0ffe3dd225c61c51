import type { FastifyInstance } from 'fastify';
import type { Deps } from '../deps';
import { registerAccountRoutes } from './accounts/routes';
import { registerAuthRoutes } from './auth/routes';
import { registerCountryRoutes } from './countries/routes';

export type RouteModule = (app: FastifyInstance, deps: Deps) => void | Promise<void>;

/** Every domain module of the API, in registration order. */
export const routeModules: RouteModule[] = [registerAuthRoutes, registerAccountRoutes, registerCountryRoutes];
