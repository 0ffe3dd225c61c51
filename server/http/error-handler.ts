import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { server as messages } from '../../contract/messages';
import { AppError } from './errors';
import { fail } from './envelope';
import { scrubUrl } from '../logger';

const contextNames: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/** The one error handler: every failure answers the envelope; 5xx details stay in the log. */
export function installErrorHandler(app: FastifyInstance, webDir?: string): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const { status, message } = describe(error);
    if (status >= 500) request.log.error({ err: error, url: scrubUrl(request.url), method: request.method }, 'request failed');
    else request.log.info({ status, url: scrubUrl(request.url), reason: message }, 'request refused');
    return reply.status(status).send(fail(message));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    // The web app's client-side routes (/customers, /strategy/BTC001, ...) all load index.html.
    if (webDir && request.method === 'GET' && !path.startsWith('/api/') && existsSync(join(webDir, 'index.html'))) {
      return reply.type('text/html').sendFile('index.html', webDir);
    }
    return reply.status(404).send(fail(messages.routeNotFound(request.method, path)));
  });
}

function describe(error: FastifyError): { status: number; message: string } {
  if (error instanceof AppError) return { status: error.statusCode, message: error.message };
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = contextNames[error.validationContext ?? 'body'] ?? 'body';
    const first = error.validation
      .slice(0, 3)
      .map((issue) => {
        const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
        return field ? `${where}.${field}: ${issue.message}` : `${where}: ${issue.message}`;
      })
      .join('; ');
    return { status: 400, message: first };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, message: messages.malformedJson };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, message: 'The request body is empty; send a JSON object' };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, message: messages.bodyTooLarge(Number((error as { limit?: number }).limit ?? 0) || 1048576) };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, message: messages.unsupportedMediaType(String(error.message.split("'")[1] ?? 'unknown')) };
    default:
      break;
  }
  if (error instanceof SyntaxError || (error as { type?: string }).type === 'entity.parse.failed') {
    return { status: 400, message: messages.malformedJson };
  }
  if (isResponseSerializationError(error as unknown as Error) && (error as { method?: string }).method) {
    return { status: 500, message: messages.internal };
  }
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (status >= 400 && status < 500) return { status, message: error.message };
  return { status: 500, message: messages.internal };
}
