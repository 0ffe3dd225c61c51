import { and, eq, gt, isNull } from 'drizzle-orm';
import { AccountStatus, ApplicationSource, Exchange, exchangeSlugs } from '../../../contract/enums';
import type { Deps } from '../../deps';
import { accounts, customers, pendingRegistrations, registrationIds } from '../../db/schema/index';
import { AppError } from '../../http/errors';
import type { ExchangeId } from '../../trading/exchanges/types';
import { isUniqueViolation } from '../accounts/repository';
import { changingSessions, createSession } from '../auth/sessions';
import { encryptCredentials } from '../../lib/credentials';
import { browserSandboxUrl } from './browser-base';
import { ConnectError, authorizeUrl, endpointsOf, exchangeCode } from './providers';
import { STATE_TTL_MS, signState, verifyState } from './state';

export type ConnectDeps = Pick<Deps, 'db' | 'clock' | 'secrets' | 'config' | 'log' | 'exchanges' | 'sessionCache'>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const platformOf: Record<ExchangeId, Exchange> = { bybit: Exchange.Bybit, bitget: Exchange.Bitget };

const messages = {
  unknownSignup: 'This sign-up link is not valid. Please register again with your Registration ID.',
  alreadyConnected: 'This account is already connected to an exchange. Please sign in.',
  expired: 'This sign-up has expired. Ask your agent for a new Registration ID and register again.',
  badState: 'This connection link is not valid or has expired (10 minutes). Go back to the connect page and press Connect Exchange again.',
  emailTaken: 'An account with this email already exists, so no new account was made and nothing was connected. Sign in with it (or reset its password), or ask your agent for a new Registration ID to register another email.',
};

/** The exchange of a path segment; Binance and OKX are listed but not available yet. */
export function exchangeOfSlug(slug: string): ExchangeId {
  if (slug === 'bybit' || slug === 'bitget') return slug;
  const known = Object.entries(exchangeSlugs).find(([, value]) => value === slug);
  if (known) throw new AppError(400, `${slug === 'okx' ? 'OKX' : 'Binance'} quick connect is not available yet (Coming soon). Please choose Bybit or Bitget.`);
  throw new AppError(400, `Unknown exchange '${slug}': use bybit or bitget`);
}

/** Where the exchange sends the browser back: on the browser's own base (see browser-base.ts). */
export function callbackUrl(browserBase: string, exchange: ExchangeId): string {
  return `${browserBase}/api/security/${exchange}/oauth/callback`;
}

async function pendingSignup(deps: ConnectDeps, tempAccountId: string) {
  if (!UUID.test(tempAccountId)) return undefined;
  const [row] = await deps.db.select().from(pendingRegistrations).where(eq(pendingRegistrations.id, tempAccountId)).limit(1);
  return row;
}

/**
 * GET /api/security/{exchange}/oauth/{tempAccountId}: the authorize URL with a signed, expiring
 * state; the page and the way back both on `browserBase`.
 */
export async function connectUrl(deps: ConnectDeps, slug: string, tempAccountId: string, browserBase: string): Promise<string> {
  const exchange = exchangeOfSlug(slug);
  const pending = await pendingSignup(deps, tempAccountId);
  if (!pending) throw new AppError(404, messages.unknownSignup);
  if (pending.completedAt) throw new AppError(409, messages.alreadyConnected);
  const now = deps.clock.now();
  if (pending.expiresAt <= now) throw new AppError(410, messages.expired);
  let endpoints;
  try {
    const access = deps.exchanges;
    const sandboxPages = access.sandboxUrl === undefined ? undefined : browserSandboxUrl(access.sandboxUrl, deps.config, browserBase);
    endpoints = endpointsOf(access, exchange, { sandboxPages });
  } catch (error) {
    if (error instanceof ConnectError) throw new AppError(error.status, error.message);
    throw error;
  }
  const state = signState(deps.config, { tempAccountId: pending.id, exchange, expiresAt: now.getTime() + STATE_TTL_MS });
  return authorizeUrl(endpoints, callbackUrl(browserBase, exchange), state);
}

/**
 * The callback: checks the state, spends the code, and in one transaction completes the sign-up
 * (customer Pending, applicationSource External, key encrypted, registration completed, session).
 * The conditional update of the pending registration makes every state usable once.
 */
export async function completeConnect(deps: ConnectDeps, slug: string, query: { code?: string | undefined; state?: string | undefined; error?: string | undefined }): Promise<{ platformType: number; accessToken: string; customerId: number }> {
  const exchange = exchangeOfSlug(slug);
  const now = deps.clock.now();
  if (query.error) throw new ConnectError(400, 'The connection was cancelled at the exchange. Go back to the connect page to try again.');
  const state = query.state ? verifyState(deps.config, query.state, now) : null;
  if (!state || state.exchange !== exchange) throw new ConnectError(400, messages.badState);
  if (!query.code) throw new ConnectError(400, 'The exchange sent no authorization code. Go back to the connect page and press Connect Exchange again.');
  const pending = await pendingSignup(deps, state.tempAccountId);
  if (!pending) throw new ConnectError(404, messages.unknownSignup);
  if (pending.completedAt) throw new ConnectError(409, messages.alreadyConnected);
  if (pending.expiresAt <= now) throw new ConnectError(410, messages.expired);
  // The sign-up form's email already had an account: said here, at the code step, before any key is made.
  if (pending.accountId === null) throw new ConnectError(409, messages.emailTaken);
  const accountId = pending.accountId;

  const access = deps.exchanges;
  const credentials = await exchangeCode(access, exchange, endpointsOf(access, exchange), query.code);
  const platformType = platformOf[exchange];
  try {
    return await changingSessions(deps, async (tx) => {
      const [claimed] = await tx
        .update(pendingRegistrations)
        .set({ completedAt: now })
        .where(and(eq(pendingRegistrations.id, pending.id), isNull(pendingRegistrations.completedAt), gt(pendingRegistrations.expiresAt, now)))
        .returning();
      if (!claimed) throw new ConnectError(409, messages.alreadyConnected);
      const [registration] = await tx.select({ agentId: registrationIds.agentId }).from(registrationIds).where(eq(registrationIds.id, claimed.registrationIdId));
      const [customer] = await tx
        .insert(customers)
        .values({
          accountId,
          agentId: registration?.agentId ?? null,
          registrationIdId: claimed.registrationIdId,
          applicationSource: ApplicationSource.External,
          platformType,
          ...encryptCredentials(deps.secrets, accountId, { apiKey: credentials.apiKey, apiSecret: credentials.secret, passphrase: credentials.passphrase }),
        })
        .returning({ id: customers.id });
      const [activated] = await tx
        .update(accounts)
        .set({ status: AccountStatus.Pending, datetimeUpdated: now })
        .where(and(eq(accounts.id, accountId), eq(accounts.status, AccountStatus.Incomplete), isNull(accounts.deletedAt)))
        .returning({ id: accounts.id });
      if (!activated) throw new ConnectError(409, 'This account is no longer waiting for an exchange connection. Please sign in or contact support.');
      const session = await createSession(tx, deps.clock, accountId);
      return { platformType, accessToken: session.token, customerId: customer!.id };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new ConnectError(409, messages.alreadyConnected);
    throw error;
  }
}
