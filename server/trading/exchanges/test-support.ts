import { expect } from 'vitest';
import { guardedFetch } from '../../../tests/helpers/fetch-guard';
import type { AccountInput } from '../../sandbox/sandbox';
import type { RunningSandbox } from '../../sandbox/index';
import { createExchangeAdapters } from './index';
import { ExchangeRateLimiter } from './rate-limiter';
import { recordingFetch, type RecordedExchange, type RecordingFetch } from './recording-fetch';
import { ExchangeFailure, type Credentials, type ExchangeAdapter, type ExchangeId } from './types';

export interface AdapterHarness {
  adapters: Record<ExchangeId, ExchangeAdapter>;
  recorder: RecordingFetch;
  limiter: ExchangeRateLimiter;
}

/** Both adapters against a sandbox, with their own limiter and every request recorded (127.0.0.1 only). */
export function adapterHarness(sandbox: RunningSandbox, limiter = new ExchangeRateLimiter()): AdapterHarness {
  const recorder = recordingFetch(guardedFetch);
  const adapters = createExchangeAdapters({ mode: 'sandbox', sandboxUrl: sandbox.url, fetchImplementation: recorder.fetch, limiter, timeoutMs: 1500 });
  return { adapters, recorder, limiter };
}

/** A funded sandbox account and the key the adapters use for it. */
export function sandboxAccount(sandbox: RunningSandbox, exchange: ExchangeId, input: Omit<AccountInput, 'exchange'> = {}): Credentials & { uid: string } {
  const created = sandbox.control.createAccount({ exchange, balance: 10_000, ...input });
  return { uid: created.uid, apiKey: created.apiKey, secret: created.secret, passphrase: created.passphrase || undefined };
}

/** "METHOD /path" of each recorded request, for exact assertions on what was sent. */
export const routes = (requests: RecordedExchange[]) => requests.map((r) => `${r.method} ${r.path}`);

/** The JSON body of a recorded POST. */
export const bodyOf = (request: RecordedExchange | undefined): Record<string, unknown> => JSON.parse(request?.body ?? '{}') as Record<string, unknown>;

/** The ExchangeFailure a promise rejects with (fails the test when it resolves or throws anything else). */
export async function failureOf(promise: Promise<unknown>): Promise<ExchangeFailure> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ExchangeFailure);
  return error as ExchangeFailure;
}
