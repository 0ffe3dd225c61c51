import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../lib/clock';
import { BoundedLog, scrubUrl } from '../logger';

/** Per kind of line (status, method, route pattern): this many lines per window, then a count. */
export const REQUEST_LOG_BOUNDS = { linesPerWindow: 20, windowMs: 10_000 } as const;

export interface RequestLog {
  /** A 4xx the error handler answered: its reason goes on the request's one line, without a stack. */
  refused(request: FastifyRequest, reason: string): void;
  /** A 5xx: the error with its stack, bounded like every other line. */
  failed(request: FastifyRequest, error: FastifyError): void;
}

/**
 * One line per finished request (in place of Fastify's two), written through a `BoundedLog`: a
 * flood of requests, refused or not, writes at most 20 lines per status, method and route every 10
 * seconds, then one line with the number left out. Refusals carry their reason and no stack.
 */
export function installRequestLog(app: FastifyInstance, clock: Clock): RequestLog {
  const bounded = new BoundedLog(app.log, { ...REQUEST_LOG_BOUNDS, now: () => clock.now().getTime() });
  const reasons = new WeakMap<FastifyRequest, string>();
  const timer = setInterval(() => bounded.flush(), REQUEST_LOG_BOUNDS.windowMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    bounded.flush(true);
  });
  const keyOf = (request: FastifyRequest, status: number) => `${status} ${request.method} ${request.routeOptions.url ?? '(no route)'}`;

  app.addHook('onResponse', async (request, reply) => {
    const status = reply.statusCode;
    const kind = status >= 500 ? 'failed' : status >= 400 ? 'refused' : 'completed';
    const fields = { method: request.method, url: scrubUrl(request.url), status, ms: Math.round(reply.elapsedTime), ip: request.ip, reason: reasons.get(request) };
    bounded.write(status >= 500 ? 'error' : 'info', keyOf(request, status), fields, `request ${kind}`);
  });

  return {
    refused: (request, reason) => reasons.set(request, reason),
    failed: (request, error) => bounded.write('error', `error ${keyOf(request, 500)}`, { err: error, url: scrubUrl(request.url), method: request.method }, 'request failed'),
  };
}
