import { vi } from 'vitest';

/**
 * The server files share a worker's module cache (`isolate: false`): the packages (ccxt, Fastify, pg,
 * Drizzle) load once per worker. Our own modules load afresh for each file, so what this repository
 * keeps per process (the exchange limiter with its address bans, the connection budget, the engine's
 * metrics) starts as it would in a new process.
 */
vi.resetModules();
