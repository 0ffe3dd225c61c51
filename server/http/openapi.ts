import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isPublic } from '../../contract/access';
import { OAUTH_CALLBACK_ANSWERS, OAUTH_CALLBACK_PATH } from '../../contract/api/exchange';
import { errorBody } from '../../contract/envelope';
import { ErrorStatus, type RouteDef } from '../../contract/route';

/** Methods whose requests carry a body Fastify parses (so a malformed, huge or foreign one is refused). */
const BODY_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

const descriptions: Record<ErrorStatus, string> = {
  [ErrorStatus.BadRequest]: 'The input is not valid; error.message names the field and the rule',
  [ErrorStatus.Unauthorized]: 'No access token, or an expired or revoked one',
  [ErrorStatus.Forbidden]: "The caller's role may not do this (or the account is inactive)",
  [ErrorStatus.NotFound]: 'No such record (or not one of the caller’s own)',
  [ErrorStatus.MethodNotAllowed]: 'This path does not answer this method (the Allow header lists those it does)',
  [ErrorStatus.Conflict]: 'The record is not in a state that allows this',
  [ErrorStatus.Gone]: 'The record has expired',
  [ErrorStatus.PayloadTooLarge]: 'The body is larger than this operation accepts; error.message gives the limit',
  [ErrorStatus.UriTooLong]: 'A path segment is longer than any valid value',
  [ErrorStatus.UnsupportedMediaType]: 'The body is not JSON (send content-type application/json)',
  [ErrorStatus.TooManyRequests]: 'Too many attempts; the Retry-After header says when to try again, where known',
  [ErrorStatus.Internal]: 'An unexpected failure; it is logged and nothing about it is returned',
  [ErrorStatus.BadGateway]: 'An exchange answered something unusable',
  [ErrorStatus.Unavailable]: 'An exchange or a configured service cannot be reached',
};

/** Every error answer: the envelope with `successful: false`, `data: null` and a message for a person. */
const errorEnvelope = z.object({ successful: z.literal(false), data: z.null(), error: errorBody });
const errorSchemas = new Map<ErrorStatus, z.ZodType>(
  Object.values(ErrorStatus).map((status) => [status, errorEnvelope.meta({ description: descriptions[status] })]),
);

/** The error statuses an operation can answer: those of its kind, and those its handler declares. */
export function errorStatusesOf(route: RouteDef): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(route.errors ?? []);
  const readsBody = BODY_METHODS.has(route.method);
  if (route.params || route.query || route.body || readsBody) statuses.add(ErrorStatus.BadRequest);
  if (route.params) {
    statuses.add(ErrorStatus.UriTooLong);
    // A path value of "." or ".." is resolved away by URL rules, landing on another path (or none).
    statuses.add(ErrorStatus.NotFound);
    statuses.add(ErrorStatus.MethodNotAllowed);
  }
  if (!isPublic(route.access)) {
    statuses.add(ErrorStatus.Unauthorized);
    statuses.add(ErrorStatus.Forbidden);
  }
  if (readsBody) {
    statuses.add(ErrorStatus.PayloadTooLarge);
    // A body of a type no parser reads is refused even where none is expected; raw-body routes read any type.
    if (!route.rawBody) statuses.add(ErrorStatus.UnsupportedMediaType);
  }
  statuses.add(ErrorStatus.Internal);
  return [...statuses].sort((a, b) => a - b);
}

/** The `response` entries of a route's Fastify schema for its error statuses. */
export function errorResponsesOf(route: RouteDef): Record<number, z.ZodType> {
  return Object.fromEntries(errorStatusesOf(route).map((status) => [status, errorSchemas.get(status)!]));
}

/** Vendor keys a route schema carries for `completeRequestBodies` (the zod body schema cannot say them). */
const RAW_BODY = 'x-raw-body';
const OPTIONAL_BODY = 'x-optional-body';

/** What the document must add about a route's body: one read as raw text, or one that may be left out. */
export function bodyDocumentationOf(route: RouteDef): Record<string, unknown> {
  if (route.rawBody) return { [RAW_BODY]: { description: route.rawBody, maxLength: route.bodyLimit } };
  if (route.body?.safeParse(undefined).success) return { [OPTIONAL_BODY]: true };
  return {};
}

type Operation = Record<string, unknown> & { requestBody?: { required?: boolean } };

/** Turns the vendor keys of `bodyDocumentationOf` into the operations' requestBody. */
function completeRequestBodies(document: { paths?: Record<string, Record<string, Operation>> }) {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const raw = operation[RAW_BODY] as { description: string; maxLength?: number } | undefined;
      if (raw) {
        operation.requestBody = {
          required: false,
          description: raw.description,
          content: { 'text/plain': { schema: { type: 'string', maxLength: raw.maxLength } }, 'application/json': { schema: { type: 'object' } } },
        } as Operation['requestBody'];
      }
      if (operation[OPTIONAL_BODY] && operation.requestBody) operation.requestBody.required = false;
      delete operation[RAW_BODY];
      delete operation[OPTIONAL_BODY];
    }
  }
  return document;
}

/** The quick-connect callback answers a browser (a redirect or an HTML page): its statuses as the contract lists them. */
function documentOAuthCallback(document: { paths?: Record<string, Record<string, Operation>> }) {
  const operation = document.paths?.[OAUTH_CALLBACK_PATH.replace(/:([A-Za-z]+)/g, '{$1}')]?.get;
  if (!operation) return;
  operation.responses = Object.fromEntries(
    Object.entries(OAUTH_CALLBACK_ANSWERS).map(([status, description]) => [
      status,
      status === '302'
        ? { description, headers: { location: { schema: { type: 'string' } } } }
        : { description, content: { 'text/html': { schema: { type: 'string' } } } },
    ]),
  );
}

/**
 * The product's document: the /api operations only (the sandbox, static files and pages are not
 * part of the product API), each protected one with the bearer scheme.
 */
export const openApiOptions: FastifyDynamicSwaggerOptions = {
  openapi: {
    info: {
      title: 'Copytrade platform API',
      version: '1.0.0',
      description:
        'Every answer is the envelope { successful, data, error: { message } }, errors included. Ids are whole numbers from 1 to 2147483647. Text fields refuse NUL characters and unpaired surrogates. Every answer carries Cache-Control: no-store.',
    },
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
  },
  transform: (document) => {
    if (!document.url.startsWith('/api/')) return { schema: { ...document.schema, hide: true }, url: document.url };
    return jsonSchemaTransform(document);
  },
  transformObject: (documentObject) => {
    if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
    completeRequestBodies(documentObject.openapiObject as Parameters<typeof completeRequestBodies>[0]);
    documentOAuthCallback(documentObject.openapiObject as Parameters<typeof documentOAuthCallback>[0]);
    return documentObject.openapiObject;
  },
};
