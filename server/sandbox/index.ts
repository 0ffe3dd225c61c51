import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { Config } from '../config';
import { BITGET_PRIVATE_PATH } from './bitget-ws/server';
import { PRIVATE_STREAM_PATH } from './bybit-private/server';
import { TRADE_SOCKET_PATH } from './bybit-ws/server';
import type { BitgetStreamLimits } from './limits';
import { resolveControlToken } from './control-token';
import { SandboxControl } from './control';
import type { BookOptions } from './books';
import { newToken } from '../lib/tokens';
import { createSandboxPlugin, type SandboxPluginOptions } from './plugin';
import type { OAuthClient } from './oauth-store';
import { Sandbox } from './sandbox';
import type { Strictness } from './strictness';

export { SandboxControl } from './control';
export type { AccountState, AccountUpdate, CounterState, Credentials, FundingState, OrderState, PositionState } from './control';
export type { Quote } from './prices';
export type { FaultRule } from './faults';
export { markets, type MarketSpec } from './markets';
export { defaultOAuthClients } from './oauth-store';
export type { OAuthClient } from './oauth-store';
export { OAUTH_STARTING_BALANCE } from './oauth-routes';
export type { AccountInput } from './sandbox';
export { BYBIT_IP_BAN_MS, BYBIT_WS_IDLE_MS } from './sandbox';
export { TRADE_SOCKET_PATH } from './bybit-ws/server';
export { PRIVATE_STREAM_PATH } from './bybit-private/server';
export { BITGET_PRIVATE_PATH } from './bitget-ws/server';
export { bitgetStreamLimits, type BitgetStreamLimits } from './limits';
export type { StreamFaultRule } from './streams/faults';
export { deepBook, defaultBook, type BookConfig } from './book';
export type { BookOptions } from './books';
export { strictDefaults, strictnessNames, type Strictness } from './strictness';
export { CONTROL_TOKEN_FILE, CONTROL_TOKEN_HEADER } from './control-token';
export type { SandboxPluginOptions } from './plugin';

export interface StartSandboxOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Seed of the random walk and of fault draws (default 1). */
  seed?: number;
  /** Start the random walk of every symbol (default true; tests usually pass false and set prices). */
  randomWalk?: boolean;
  /** Clock in ms epoch for timestamps, recv windows and rate-limit windows (default Date.now). */
  now?: () => number;
  /** How far the exchange's clock runs ahead of `now` (negative: behind), ms; clients signing with their own clock see it (D10). */
  clockOffsetMs?: number;
  /** Funding interval (default 8 hours), counted from the sandbox's start (funding.ts). */
  fundingIntervalMs?: number;
  /** OAuth clients of the quick-connect flows (default: the fixed sandbox clients of README.md). */
  oauthClients?: OAuthClient[];
  /** Order books per symbol (default: a small book, book.ts defaultBook; `{ ...deepBook }` for exact fills at the mark price). */
  book?: BookOptions;
  /** Unverified rows: every switch defaults to the stricter reading (strictness.ts). */
  strictness?: Partial<Strictness>;
  /** Length of Bybit's ban of an address that exceeded 600 requests / 5 s (default 10 minutes). */
  ipBanMs?: number;
  /** The control plane's token (default: a random one, see RunningSandbox.controlToken). */
  controlToken?: string;
  /** One-way latency (ms) of every HTTP request and answer and every /v5/trade frame (default 0). */
  latencyMs?: number;
  /** Bybit's idle cut of a /v5/trade socket without frames from the client (default 10 minutes). */
  tradeIdleMs?: number;
  /** New /v5/trade connections per address (default Bybit's 500 per 5 minutes; benchmarks only, see SandboxOptions). */
  tradeConnectionsPerIp?: { limit: number; windowMs: number };
  /** Bybit /v5/private's idle cut when the URL sets no max_active_time (default 10 minutes). */
  privateIdleMs?: number;
  /** Bitget /v2/ws/private's ceilings and timers (default Bitget's; benchmarks and tests only). */
  bitgetStreamLimits?: Partial<BitgetStreamLimits>;
}

export interface RunningSandbox {
  /** Base URL for ccxt: Bybit paths /v5/..., Bitget /api/..., control /control/..., OAuth pages. */
  url: string;
  /** Bybit's WebSocket order entry of this sandbox (ws://host:port/v5/trade). */
  tradeSocketUrl: string;
  /** Bybit's private stream (ws://host:port/v5/private). */
  privateStreamUrl: string;
  /** Bitget's private WebSocket (ws://host:port/v2/ws/private). */
  bitgetPrivateUrl: string;
  close(): Promise<void>;
  control: SandboxControl;
  /** What the control endpoint's X-Sandbox-Control header must carry. */
  controlToken: string;
}

/** A standalone sandbox with its own state on its own port (tests, benchmarks). */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<RunningSandbox> {
  const { port: _port, host: _host, controlToken: _controlToken, ...sandboxOptions } = options;
  const sandbox = new Sandbox(sandboxOptions);
  // Requests held open by a 'timeout' fault must not keep close() waiting for keep-alive expiry.
  const app = Fastify({ logger: false, bodyLimit: 1024 * 1024, forceCloseConnections: true });
  const controlToken = options.controlToken ?? newToken();
  await app.register(createSandboxPlugin(sandbox, { controlToken }));
  const host = options.host ?? '127.0.0.1';
  await app.listen({ port: options.port ?? 0, host, backlog: 4096 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://${host}:${port}`,
    tradeSocketUrl: `ws://${host}:${port}${TRADE_SOCKET_PATH}`,
    privateStreamUrl: `ws://${host}:${port}${PRIVATE_STREAM_PATH}`,
    bitgetPrivateUrl: `ws://${host}:${port}${BITGET_PRIVATE_PATH}`,
    control: new SandboxControl(sandbox),
    controlToken,
    close: async () => {
      sandbox.close();
      await app.close();
    },
  };
}

let shared: Sandbox | undefined;

function sharedSandbox(): Sandbox {
  shared ??= new Sandbox({ seed: Date.now() % 2 ** 31, randomWalk: true });
  return shared;
}

/** Control handle of the state the mounted plugin serves (one per process). */
export function sharedSandboxControl(): SandboxControl {
  return new SandboxControl(sharedSandbox());
}

/**
 * Mount with `app.register(sandboxPlugin, { prefix: '/sandbox', controlToken })`; every mount shares
 * one in-memory state per process. Only in EXCHANGE_MODE=sandbox: live mode has no sandbox at all.
 */
export const sandboxPlugin: FastifyPluginAsync<SandboxPluginOptions> = async (app, options) =>
  createSandboxPlugin(sharedSandbox(), { controlToken: options.controlToken })(app, options);

/**
 * What `npm start` mounts next to the API: the sandbox under /sandbox in EXCHANGE_MODE=sandbox, its
 * control token from SANDBOX_CONTROL_TOKEN or written to DATA_DIR/sandbox-control.token; in live mode
 * nothing (no sandbox, no control plane).
 */
export function sandboxMountsFor(
  config: Pick<Config, 'exchangeMode' | 'dataDir'>,
  env: NodeJS.ProcessEnv,
  log: (line: string) => void,
): Array<(app: FastifyInstance) => Promise<void>> {
  if (config.exchangeMode !== 'sandbox') return [];
  return [
    async (app) => {
      const control = resolveControlToken(env, config.dataDir);
      if (control.file) log(`sandbox control token written to ${control.file}`);
      await app.register(sandboxPlugin, { prefix: '/sandbox', controlToken: control.token });
    },
  ];
}
