import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { server as messages } from '../../contract/messages';
import { ErrorStatus } from '../../contract/route';
import { TradingRefusal } from '../trading/refusal';
import { AppError } from './errors';
import { fail } from './envelope';
import type { RequestLog } from './request-log';

const contextNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** Server paths that are never the web app's client-side routes (GET /metrics without METRICS_TOKEN is a 404, not the web app). */
export const SERVER_PATHS = ['/metrics', '/healthz', '/readyz'];

/** The methods the API answers; any other (TRACE, CONNECT...) is refused with 405 on every path. */
export const API_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/** Headers every API answer carries: nothing in it may be kept by a cache. */
export const API_ANSWER_HEADERS = { 'cache-control': 'no-store' } as const;

/** The one error handler: every failure answers the envelope; 5xx details stay in the (bounded) log. */
export function installErrorHandler(app: FastifyInstance, requestLog: RequestLog, webDir?: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = describe(error, request);
    if (status >= 500) requestLog.failed(request, error);
    else requestLog.refused(request, message);
    if (error instanceof AppError) reply.headers(error.headers);
    return reply.status(status).send(fail(message));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The web app's client-side routes (/customers, /strategy/BTC001, ...) all load index.html.
    if (webDir && request.method === 'GET' && !path.startsWith('/api/') && !SERVER_PATHS.includes(path) && existsSync(join(webDir, 'index.html'))) {
      return reply.type('text/html').sendFile('index.html', webDir);
    }
    const allowed = API_METHODS.filter((method) => app.findRoute({ method, url: path }) !== null);
    const known = (API_METHODS as readonly string[]).includes(request.method) || request.method === 'HEAD';
    if (allowed.length > 0 || !known) {
      if (allowed.length > 0) reply.header('allow', allowed.join(', '));
      return reply.status(ErrorStatus.MethodNotAllowed).send(fail(messages.methodNotAllowed(request.method, path, allowed)));
    }
    return reply.status(ErrorStatus.NotFound).send(fail(messages.routeNotFound(request.method, path)));
  });
}

/**
 * Failures Fastify answers before any route runs (a path that is not valid URL encoding, a path
 * segment over the length limit): the same envelope, written directly since no hook runs here.
 */
export function frameworkErrorAnswer(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? ErrorStatus.UriTooLong : ErrorStatus.BadRequest;
  const message = status === ErrorStatus.UriTooLong ? messages.pathSegmentTooLong : messages.badUrl;
  void reply.status(status).headers(API_ANSWER_HEADERS).type('application/json; charset=utf-8').send(JSON.stringify(fail(message)));
}

function bodyLimitOf(request: FastifyRequest): number {
  return request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit ?? 0;
}

function describe(error: FastifyError, request: FastifyRequest): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  if (error instanceof TradingRefusal) return { status: error.reason === 'missing' ? ErrorStatus.NotFound : ErrorStatus.Conflict, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = contextNames[error.validationContext ?? 'body'] ?? 'body';
    const first = error.validation
      .slice(0, 3)
      .map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
        return field ? `${where}.${field}: ${issue.message}` : `${where}: ${issue.message}`;
      })
      .join('; ');
    return { status: ErrorStatus.BadRequest, message: first };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: ErrorStatus.BadRequest, message: messages.malformedJson };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: ErrorStatus.BadRequest, message: 'The request body is empty; send a JSON object' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: ErrorStatus.PayloadTooLarge, message: messages.bodyTooLarge(bodyLimitOf(request)) };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: ErrorStatus.UnsupportedMediaType, message: messages.unsupportedMediaType(String(request.headers['content-type'] ?? 'none').slice(0, 100)) };
    default:
      break;
  }
  if (error instanceof SyntaxError || (error as { type?: string }).type === 'entity.parse.failed') {
    return { status: ErrorStatus.BadRequest, message: messages.malformedJson };
  }
  if (isResponseSerializationError(error as unknown as Error) && (error as { method?: string }).method) {
    return { status: ErrorStatus.Internal, message: messages.internal };
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : ErrorStatus.Internal;
  if (status >= 400 && status < 500) return { status, message: error.message };
  return { status: ErrorStatus.Internal, message: messages.internal };
}
