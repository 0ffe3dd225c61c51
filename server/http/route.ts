import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccountStatus, AccountType } from '../../contract/enums';
import { envelopeOf } from '../../contract/envelope';
import type { RouteBody, RouteDef, RouteParams, RouteQuery } from '../../contract/route';
import { isPublic, type AccessRule } from '../../contract/access';
import { ok } from './envelope';
import { bodyDocumentationOf, errorResponsesOf } from './openapi';

export interface AuthContext {
  accountId: number;
  accountType: AccountType;
  status: AccountStatus;
  sessionId: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    access?: AccessRule;
    unauthenticatedMessage?: string;
  }
}

export interface HandlerContext<R extends RouteDef> {
  params: RouteParams<R>;
  query: RouteQuery<R>;
  body: RouteBody<R>;
  /** The caller; set on every route that is not public (the access hook refused the others). */
  auth: AuthContext;
  request: FastifyRequest;
  reply: FastifyReply;
}

export type RouteHandler<R extends RouteDef> = (ctx: HandlerContext<R>) => Promise<z.input<R['data']>>;

/** Registers a contract route: schemas for validation and OpenAPI, the access rule, the envelope. */
export function registerRoute<R extends RouteDef>(app: FastifyInstance, route: R, handler: RouteHandler<R>): void {
  app.route({
    method: route.method,
    url: route.path,
    config: { access: route.access, unauthenticatedMessage: route.unauthenticatedMessage },
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    schema: {
      summary: route.summary,
      tags: [route.tag],
      ...(route.params ? { params: route.params } : {}),
      ...(route.query ? { querystring: route.query } : {}),
      ...(route.body ? { body: route.body } : {}),
      ...(isPublic(route.access) ? {} : { security: [{ bearer: [] }] }),
      ...bodyDocumentationOf(route),
      response: { 200: envelopeOf(route.data), ...errorResponsesOf(route) },
    },
    handler: async (request, reply) => {
      const data = await handler({
        params: request.params as RouteParams<R>,
        query: request.query as RouteQuery<R>,
        body: request.body as RouteBody<R>,
        get auth() {
          if (!request.auth) throw new Error(`Route ${route.method} ${route.path} read auth but is public`);
          return request.auth;
        },
        request,
        reply,
      });
      return ok(data);
    },
  });
}
