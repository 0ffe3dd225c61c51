import type { FastifyRequest } from 'fastify';
import { server as messages } from '../../../contract/messages';
import { tooManyRequests } from '../../http/errors';
import type { RateLimiter, RateLimitRule } from '../../lib/rate-limit';

/**
 * Budgets for the endpoints people could brute-force, per client address and per account and
 * address (a stranger's tries never spend the owner's budget). Wrong passwords per account are
 * throttled by `sign-in-throttle.ts`.
 */
export const authLimits = {
  loginPerIp: { limit: 100, windowSeconds: 15 * 60 },
  otpPerIp: { limit: 200, windowSeconds: 15 * 60 },
  /** Per account (or reset ticket) and requesting address, like every per-account budget here. */
  otpPerAccount: { limit: 20, windowSeconds: 15 * 60 },
  forgotPerIp: { limit: 10, windowSeconds: 15 * 60 },
  forgotPerEmailAndIp: { limit: 5, windowSeconds: 15 * 60 },
  registrationIdPerIp: { limit: 20, windowSeconds: 15 * 60 },
  registerPerIp: { limit: 20, windowSeconds: 60 * 60 },
} satisfies Record<string, RateLimitRule>;

export type AuthLimitName = keyof typeof authLimits;

/** Counts one attempt under each key; refuses with 429 when any is over budget. */
export async function enforceLimits(limiter: RateLimiter, checks: Array<[AuthLimitName, string]>): Promise<void> {
  const results = await Promise.all(checks.map(([name, subject]) => limiter.hit(`${name}:${subject.toLowerCase()}`, authLimits[name])));
  if (results.some((allowed) => !allowed)) throw tooManyRequests(messages.tooManyRequests);
}

export function clientIp(request: FastifyRequest): string {
  return request.ip;
}
