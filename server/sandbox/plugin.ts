import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { SandboxControl } from './control';
import { clientIp, registerControlRoutes } from './control-routes';
import { serveBitgetPrivateStream } from './bitget-ws/server';
import { servePrivateStream } from './bybit-private/server';
import { serveTradeSocket } from './bybit-ws/server';
import { Holds } from './holds';
import { registerOAuthRoutes } from './oauth-routes';
import { exchangeOf, handleExchangeRequest } from './pipeline';
import type { Sandbox } from './sandbox';

export interface SandboxPluginOptions {
  /** The token of the control plane's X-Sandbox-Control header. */
  controlToken: string;
}

/**
 * The sandbox as an encapsulated Fastify plugin: its own raw-string body parser (signatures are checked
 * against the exact bytes), error handler and routes; the parent app's JSON parsing is untouched.
 */
export function createSandboxPlugin(sandbox: Sandbox, options: SandboxPluginOptions): FastifyPluginAsync {
  return async (app: FastifyInstance) => {
    const holds = new Holds();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
    app.setErrorHandler((error, request, reply) => {
      request.log.error({ err: error }, 'sandbox request failed');
      return reply.status(500).send({ error: 'The sandbox failed to handle this request' });
    });
    app.setNotFoundHandler((request, reply) => reply.status(404).send({ error: `No sandbox route ${request.method} ${request.url.split('?')[0]}` }));
    app.addHook('preClose', async () => holds.releaseAll());

    registerControlRoutes(app, new SandboxControl(sandbox), options.controlToken);
    registerOAuthRoutes(app, sandbox);
    serveTradeSocket(app, sandbox, holds);
    servePrivateStream(app, sandbox);
    serveBitgetPrivateStream(app, sandbox);

    const prefix = app.prefix;
    app.route({
      method: ['GET', 'POST', 'PUT', 'DELETE'],
      url: '/*',
      handler: async (request, reply) => {
        const rawUrl = request.raw.url ?? '/';
        const mark = rawUrl.indexOf('?');
        const fullPath = mark < 0 ? rawUrl : rawUrl.slice(0, mark);
        const path = prefix && fullPath.startsWith(prefix) ? fullPath.slice(prefix.length) : fullPath;
        const exchange = exchangeOf(path);
        if (!exchange) return reply.status(404).send({ error: `No sandbox route ${request.method} ${path}` });
        const answer = await handleExchangeRequest(sandbox, holds, exchange, {
          readAt: sandbox.now(),
          method: request.method,
          path,
          rawQuery: mark < 0 ? '' : rawUrl.slice(mark + 1),
          rawBody: typeof request.body === 'string' ? request.body : '',
          ip: clientIp(request),
          headers: request.headers,
          onGone: (callback) => (request.raw.socket.destroyed ? callback() : reply.raw.once('close', callback)),
        });
        if (!answer) {
          reply.hijack();
          reply.raw.destroy();
          return reply;
        }
        if (answer.headers) reply.headers(answer.headers);
        return reply.status(answer.status).type(answer.contentType).send(answer.body);
      },
    });
  };
}
