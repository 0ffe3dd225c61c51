import type { FastifyInstance, FastifyReply } from 'fastify';
import { CONNECT_SUCCESS_PATH, OAUTH_CALLBACK_PATH, exchangeRoutes } from '../../../contract/api/exchange';
import type { Deps } from '../../deps';
import { AppError } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { connectedCustomers } from '../account-health/repository';
import { syncCustomer } from '../account-health/sync';
import { connectErrorPage } from './error-page';
import { browserBaseOf } from './browser-base';
import { ConnectError } from './providers';
import { completeConnect, connectUrl } from './service';

type CallbackQuery = Record<string, string | string[] | undefined>;
const single = (value: string | string[] | undefined) => (typeof value === 'string' ? value : undefined);

function errorPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply.status(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(connectErrorPage(message));
}

export function registerExchangeConnectRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, exchangeRoutes.connectUrl, async ({ params, request }) => ({
    url: await connectUrl(deps, params.exchange, params.tempAccountId, browserBaseOf(deps.config, request)),
  }));

  app.route<{ Params: { exchange: string }; Querystring: CallbackQuery }>({
    method: 'GET',
    url: OAUTH_CALLBACK_PATH,
    config: { access: 'public' },
    schema: { summary: 'Quick connect: where the exchange sends the browser back (redirects to the success page, or an error page)', tags: ['security'] },
    handler: async (request, reply) => {
      let done;
      try {
        done = await completeConnect(deps, request.params.exchange.toLowerCase(), {
          code: single(request.query.code),
          state: single(request.query.state),
          error: single(request.query.error),
        });
      } catch (error) {
        if (error instanceof ConnectError || error instanceof AppError) return errorPage(reply, error instanceof ConnectError ? error.status : error.statusCode, error.message);
        request.log.error({ err: error }, 'quick connect failed');
        return errorPage(reply, 500, 'Something went wrong while connecting your exchange. Nothing was saved; please try again.');
      }
      // First health check and wallet read, so staff see the new key at once; the sync retries later.
      try {
        const [customer] = await connectedCustomers(deps.db, done.customerId);
        if (customer) await syncCustomer(deps, customer);
      } catch (error) {
        request.log.warn({ err: error, customerId: done.customerId }, 'first wallet sync after quick connect failed');
      }
      const target = `${CONNECT_SUCCESS_PATH}?${new URLSearchParams({ platformType: String(done.platformType), accessToken: done.accessToken }).toString()}`;
      return reply.header('cache-control', 'no-store').redirect(target, 302);
    },
  });
}
