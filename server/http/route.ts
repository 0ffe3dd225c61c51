import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { AccountStatus, AccountType } from '../../contract/enums';
import { envelopeOf } from '../../contract/envelope';
import type { RouteBody, RouteDef, RouteParams, RouteQuery } from '../../contract/route';
import { isPublic, type AccessRule } from '../../contract/access';
import type { TempFile } from '../lib/temp-file';
import { ok } from './envelope';
import { envelopeAround, fileAnswerStream } from './file-answer';
import { bodyDocumentationOf, errorResponsesOf } from './openapi';

export interface AuthContext {
  accountId: number;
  accountType: AccountType;
  status: AccountStatus;
  sessionId: number;
  /** agents.id of the account, if it is an agent (its own lists are forced to it). */
  agentId: number | null;
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

/** Fastify's options of a contract route: schemas for validation and OpenAPI, the access rule. */
function routeOptions(route: RouteDef) {
  return {
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
  };
}

function contextOf<R extends RouteDef>(route: R, request: FastifyRequest, reply: FastifyReply): HandlerContext<R> {
  return {
    params: request.params as RouteParams<R>,
    query: request.query as RouteQuery<R>,
    body: request.body as RouteBody<R>,
    get auth() {
      if (!request.auth) throw new Error(`Route ${route.method} ${route.path} read auth but is public`);
      return request.auth;
    },
    request,
    reply,
  };
}

/** Registers a contract route: schemas for validation and OpenAPI, the access rule, the envelope. */
export function registerRoute<R extends RouteDef>(app: FastifyInstance, route: R, handler: RouteHandler<R>): void {
  app.route({
    ...routeOptions(route),
    handler: async (request, reply) => ok(await handler(contextOf(route, request, reply))),
  });
}

/** A file answer: the finished file, and the answer's fields besides its base64 (e.g. fileName). */
export interface FileAnswer {
  file: TempFile;
  fields?: Record<string, string>;
}

/**
 * Registers a contract route whose answer carries a file as `data.fileBase64String` (the exports):
 * the envelope is written by the route's contract serializer, and the file is streamed into it
 * from disk as base64, so neither the file nor its base64 is ever held in memory whole. The file
 * is removed once answered (or when the caller goes away).
 */
export function registerFileRoute<R extends RouteDef>(app: FastifyInstance, route: R, handler: (ctx: HandlerContext<R>) => Promise<FileAnswer>): void {
  app.route({
    ...routeOptions(route),
    handler: async (request, reply) => {
      const { file, fields } = await handler(contextOf(route, request, reply));
      try {
        const { stream, contentLength } = fileAnswerStream(file, envelopeAround(reply, fields ?? {}));
        reply.header('content-length', contentLength);
        reply.type('application/json; charset=utf-8');
        return reply.send(stream);
      } catch (error) {
        await file.remove();
        throw error;
      }
    },
  });
}
