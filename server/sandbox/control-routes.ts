import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { SandboxControl } from './control';
import {
  accountInput,
  accountUpdate,
  bookInput,
  clockInput,
  dropSocketsInput,
  faultsInput,
  fundInput,
  fundingInput,
  ipBanInput,
  latencyInput,
  priceInput,
  stepInput,
  streamDropInput,
  streamFaultsInput,
  strictnessInput,
  walkInput,
} from './control-schemas';
import { CONTROL_TOKEN_HEADER, controlTokenAccepted } from './control-token';

export function clientIp(request: FastifyRequest): string {
  return request.ip.replace(/^::ffff:/, '');
}

/** Both the connection and the (proxy-aware) client address must be 127.0.0.1. */
function fromLocalhost(request: FastifyRequest): boolean {
  return clientIp(request) === '127.0.0.1' && (request.socket.remoteAddress ?? '').replace(/^::ffff:/, '') === '127.0.0.1';
}

function parse<T extends z.ZodType>(schema: T, raw: unknown): z.infer<T> {
  let value: unknown = {};
  if (typeof raw === 'string' && raw.trim()) {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new ControlError(400, 'The body is not valid JSON');
    }
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = result.error.issues[0];
    throw new ControlError(400, `${issue?.path.join('.') || 'body'}: ${issue?.message ?? 'invalid'}`);
  }
  return result.data;
}

class ControlError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

type Handler = (request: FastifyRequest<{ Params: { uid?: string } }>) => unknown;

type AddRoute = (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, handler: Handler, status?: number) => void;

/** Adds control routes to `app`: each refused unless from 127.0.0.1 with the control token; errors answered as JSON. */
function controlRouter(app: FastifyInstance, controlToken: string): AddRoute {
  return (method, url, handler, status = 200) => {
    app.route({
      method,
      url: `/control${url}`,
      handler: async (request: FastifyRequest<{ Params: { uid?: string } }>, reply: FastifyReply) => {
        if (!fromLocalhost(request)) return reply.status(403).send({ error: 'The sandbox control endpoint only answers 127.0.0.1' });
        if (!controlTokenAccepted(controlToken, request.headers[CONTROL_TOKEN_HEADER])) {
          return reply.status(401).send({ error: 'The sandbox control endpoint needs the header X-Sandbox-Control with the control token (SANDBOX_CONTROL_TOKEN, or DATA_DIR/sandbox-control.token)' });
        }
        try {
          const data = handler(request);
          return reply.status(status).send(data ?? { ok: true });
        } catch (error) {
          const known = error instanceof ControlError;
          const message = error instanceof Error ? error.message : String(error);
          const missing = message.startsWith('No sandbox account');
          return reply.status(known ? error.status : missing ? 404 : 400).send({ error: message });
        }
      },
    });
  };
}

const uid = (request: FastifyRequest<{ Params: { uid?: string } }>) => request.params.uid ?? '';

/** The sandbox's state, its accounts and their balances. */
function accountRoutes(route: AddRoute, control: SandboxControl): void {
  route('GET', '/state', () => control.state());
  route('GET', '/counters', () => control.counters());
  route('POST', '/reset', () => control.reset());
  route('GET', '/accounts', () => control.accounts());
  route('POST', '/accounts', (request) => control.createAccount(parse(accountInput, request.body)), 201);
  route('GET', '/accounts/:uid', (request) => control.account(uid(request)));
  route('PATCH', '/accounts/:uid', (request) => control.updateAccount(uid(request), parse(accountUpdate, request.body)));
  route('DELETE', '/accounts/:uid', (request) => control.deleteAccount(uid(request)));
  route('POST', '/accounts/:uid/fund', (request) => {
    const input = parse(fundInput, request.body);
    return { balance: control.fund(uid(request), input.amount, input.coin) };
  });
}

/** Prices, quotes, books, funding and the exchange's clock. */
function marketRoutes(route: AddRoute, control: SandboxControl): void {
  route('GET', '/prices', () => control.prices());
  route('POST', '/prices', (request) => {
    const { symbol, price, ...apart } = parse(priceInput, request.body);
    if (price !== undefined && Object.keys(apart).length === 0) return { symbol, price: control.setPrice(symbol, price) };
    if (price !== undefined) control.setPrice(symbol, price);
    return { symbol, ...control.setQuote(symbol, apart) };
  });
  route('GET', '/quotes', () => control.quotes());
  route('GET', '/funding', () => control.funding());
  route('PUT', '/funding', (request) => control.setFunding(parse(fundingInput, request.body)));
  route('POST', '/funding/settle', () => ({ settled: control.settleFunding() }));
  route('GET', '/clock', () => control.clock());
  route('PUT', '/clock', (request) => control.setClockOffset(parse(clockInput, request.body).offsetMs));
  route('POST', '/prices/step', (request) => {
    const input = parse(stepInput, request.body);
    return control.step(input.symbol, input.steps);
  });
  route('POST', '/random-walk', (request) => {
    const input = parse(walkInput, request.body);
    return { walking: input.enabled ? control.startRandomWalk(input.symbols, input.intervalMs) : control.stopRandomWalk(input.symbols) };
  });
  route('GET', '/book', () => control.books());
  route('PUT', '/book', (request) => {
    const { symbol, ...update } = parse(bookInput, request.body);
    return control.setBook(update, symbol);
  });
}

/** What the sandbox refuses or breaks on purpose: faults, strictness, bans, latency, dropped sockets and streams. */
function faultRoutes(route: AddRoute, control: SandboxControl): void {
  route('GET', '/faults', () => ({ rules: control.faults() }));
  route('PUT', '/faults', (request) => ({ rules: control.setFaults(parse(faultsInput, request.body).rules) }));
  route('DELETE', '/faults', () => ({ rules: control.setFaults([]) }));
  route('GET', '/strictness', () => control.strictness());
  route('PATCH', '/strictness', (request) => control.setStrictness(parse(strictnessInput, request.body)));
  route('PUT', '/ip-ban', (request) => ({ ms: control.setIpBan(parse(ipBanInput, request.body).ms) }));
  route('DELETE', '/ip-bans', () => control.liftBans());
  route('GET', '/latency', () => ({ ms: control.latency() }));
  route('PUT', '/latency', (request) => ({ ms: control.setLatency(parse(latencyInput, request.body).ms) }));
  route('POST', '/trade-sockets/drop', (request) => ({ dropped: control.dropTradeSockets(parse(dropSocketsInput, request.body).account) }));
  route('POST', '/trade-sockets/restart', (request) => ({ restarted: control.restartTradeSockets(parse(dropSocketsInput, request.body).account) }));
  route('GET', '/accounts/:uid/streams', (request) => ({ subscriptions: control.streamSubscriptions(uid(request)) }));
  route('POST', '/streams/drop', (request) => ({ dropped: control.dropStreams(parse(streamDropInput, request.body)) }));
  route('GET', '/streams/faults', () => control.streamFaults());
  route('PUT', '/streams/faults', (request) => ({ rules: control.setStreamFaults(parse(streamFaultsInput, request.body).rules) }));
  route('DELETE', '/streams/faults', () => {
    control.clearStreamFaults();
    return control.streamFaults();
  });
}

/**
 * JSON control endpoint under {base}/control/..., refused unless the caller is 127.0.0.1 and sends
 * `X-Sandbox-Control: <controlToken>`.
 */
export function registerControlRoutes(app: FastifyInstance, control: SandboxControl, controlToken: string): void {
  const route = controlRouter(app, controlToken);
  accountRoutes(route, control);
  marketRoutes(route, control);
  faultRoutes(route, control);
}
