import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import helmetMiddleware from 'helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { Deps } from './deps';
import { installAccessControl } from './http/access-hook';
import { answerClientError } from './http/client-error';
import { API_ANSWER_HEADERS, frameworkErrorAnswer, installErrorHandler } from './http/error-handler';
import { openApiOptions } from './http/openapi';
import { installRequestLog } from './http/request-log';
import { installUpgradeGuard } from './http/upgrade-guard';
import { contractSerializerCompiler } from './http/serializer';
import { registerMetricsRoutes } from './metrics/routes';
import { routeModules } from './modules/index';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface AppOptions {
  /** Serve the built web app from dist/ (npm start); tests leave it off. */
  serveWeb?: boolean;
  /** Extra plugins mounted after the API (e.g. the exchange sandbox under /sandbox). */
  extraPlugins?: Array<(app: FastifyInstance, deps: Deps) => void | Promise<void>>;
}

/** Builds the Fastify instance; `main.ts` listens with it and tests call it through `app.inject()`. */
export async function buildApp(deps: Deps, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: deps.log,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 1024 * 1024,
    // Longer than any valid path value (webhook tokens have at most 200 characters); longer ones answer 414.
    routerOptions: { maxParamLength: 500 },
    frameworkErrors: frameworkErrorAnswer,
    clientErrorHandler: answerClientError,
    // One bounded line per request instead (http/request-log.ts): floods cannot flood the log.
    disableRequestLogging: true,
  });
  const requestLog = installRequestLog(app, deps.clock);
  installUpgradeGuard(app);
  // Browsers send `content-type: application/json` on bodiless POSTs (exports, manual trades):
  // an empty body is no body, not an error. Everything else goes through Fastify's safe parser.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(contractSerializerCompiler);

  // helmet's headers (CSP and the rest), its middleware built once: @fastify/helmet built it again on
  // every request, re-parsing the CSP, which cost the empty route a fifth of its throughput.
  const securityHeaders = helmetMiddleware({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
      },
    },
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => securityHeaders(request.raw, reply.raw, (error) => done(error as Error | undefined)));

  await app.register(swagger, openApiOptions);

  // API answers are personal (tokens, customer data): no cache may keep them.
  app.addHook('onSend', async (request, reply) => {
    if (request.url.startsWith('/api/')) reply.headers(API_ANSWER_HEADERS);
  });

  installErrorHandler(app, requestLog, options.serveWeb ? path.join(root, 'dist') : undefined);
  installAccessControl(app, deps);

  await app.register(fastifyStatic, {
    root: path.join(root, 'node_modules', 'flag-icons', 'flags', '4x3'),
    prefix: '/flags/',
    decorateReply: false,
    maxAge: '7d',
  });

  for (const register of routeModules) await register(app, deps);
  registerMetricsRoutes(app, deps);
  for (const plugin of options.extraPlugins ?? []) await plugin(app, deps);

  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  if (options.serveWeb && existsSync(path.join(root, 'dist', 'index.html'))) {
    await app.register(fastifyStatic, { root: path.join(root, 'dist'), prefix: '/', wildcard: false, index: false });
  }
  return app;
}
