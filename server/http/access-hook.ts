import type { FastifyInstance } from 'fastify';
import { isAllowed, isPublic, type AccessRule } from '../../contract/access';
import { server as messages } from '../../contract/messages';
import type { Deps } from '../deps';
import { bearerToken, resolveSession } from '../modules/auth/sessions';
import { forbidden, unauthorized } from './errors';

export interface AccessTableEntry {
  method: string;
  url: string;
  access: AccessRule;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every /api route with its declared rule, as registered: the role-table test walks it. */
    accessTable: AccessTableEntry[];
  }
}

/**
 * Checks the caller against the route's access rule before the body is even parsed, so a caller
 * without the right role learns nothing about the route's input. Every /api route must declare a rule.
 */
export function installAccessControl(app: FastifyInstance, deps: Pick<Deps, 'db' | 'clock' | 'sessionCache'>): void {
  app.decorateRequest('auth', null);
  const table: AccessTableEntry[] = [];
  app.decorate('accessTable', table);

  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url === '/api/docs') return;
    const access = route.config?.access;
    if (access === undefined) throw new Error(`Route ${String(route.method)} ${route.url} declares no access rule`);
    for (const method of [route.method].flat()) if (method !== 'HEAD') table.push({ method, url: route.url, access });
  });

  deps.sessionCache.start();
  app.addHook('onClose', () => deps.sessionCache.stop());

  app.addHook('onRequest', async (request) => {
    const { access, unauthenticatedMessage } = request.routeOptions.config;
    if (access === undefined || isPublic(access)) return;
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthorized(unauthenticatedMessage ?? messages.noAccessToken);
    const auth = await resolveSession(deps, token);
    if (!auth) throw unauthorized(messages.sessionExpired);
    if (!isAllowed(access, auth.accountType)) throw forbidden(messages.permissionDenied);
    request.auth = auth;
  });
}
