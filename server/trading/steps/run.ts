import type { ExecutionContext } from '../context';
import { markEndedWithoutPosition } from '../execution-state/entry';
import { markCloseAbandoned, markProtectionAbandoned } from '../execution-state/position';
import { backoffMs, forgiveAttempt, releaseClaim } from '../execution-state/queue';
import type { TradingRuntime } from '../runtime';
import { runClose } from './close';
import { runEntry, learnEntryFill } from './entry';
import { classify, isFailure } from './errors';
import { runProtection, type ProtectionResult } from './protect';
import { openSession, type Session } from './session';
import { runSync } from './sync';

type Phase = 'entry' | 'protect' | 'close' | 'sync';

/** Protection keeps trying well past the entry deadline: an open position must not stay naked. */
const PROTECT_MAX_ATTEMPTS = 12;
const CLOSE_MAX_ATTEMPTS = 12;
/** A follow-up that failed (stop to entry, legs resized) is tried again this soon, until done or the position is gone. */
const FOLLOW_UP_RETRY_MS = 2_000;
/** Protection put off for entries that need the whole budget is tried again this soon. */
const PROTECTION_DEFERRED_MS = 500;
/** Retry delay after a rate-limit answer: past the exchanges' per-account window (1 s), with spacing. */
const RATE_LIMIT_RETRY_MS = 1_100;

function phaseOf(ctx: ExecutionContext): Phase {
  if (ctx.state === 'pending') return 'entry';
  if (ctx.closeRequestedAt) return 'close';
  if (!ctx.protectedAt) return 'protect';
  return 'sync';
}

/**
 * The fill read back and the protection placed, when the pacer gives this execution its turn: right
 * away, unless entries still waiting need the whole request budget to meet their deadline ('deferred':
 * the claim goes back to the queue, behind those entries). The entry already carries its stop.
 */
async function protectWhenAllowed(rt: TradingRuntime, ctx: ExecutionContext, session: Session): Promise<ProtectionResult | 'deferred' | 'ended'> {
  const release = await rt.pacer.protection(session.exchange);
  if (!release) return 'deferred';
  try {
    if (ctx.entryPrice === null && !(await learnEntryFill(rt, ctx, session))) return 'ended';
    return await runProtection(rt, ctx, session);
  } finally {
    release();
  }
}

/**
 * Runs one claimed execution as far as it can go; every outcome ends the claim. `entryDone` is called
 * once its entry is placed and it goes on to its protection (the dispatcher's entry place is then free).
 */
export async function runExecution(rt: TradingRuntime, ctx: ExecutionContext, entryDone?: () => void): Promise<void> {
  let phase = phaseOf(ctx);
  try {
    const session = await openSession(rt, ctx);
    if (phase === 'entry') {
      if (!(await runEntry(rt, ctx, session))) return;
      entryDone?.();
      // Protection does not wait for other customers' entries: it follows this entry's own fill at
      // once, its requests interleaved with the others' entries by the shared rate limiter.
      phase = 'protect';
    }
    let delay = rt.config.syncIntervalMs;
    if (phase === 'protect') {
      const result = await protectWhenAllowed(rt, ctx, session);
      if (result === 'closed' || result === 'ended') return;
      if (result === 'deferred') {
        // Waiting is not failing: the claim does not count towards giving protection up.
        await forgiveAttempt(rt.db, rt.worker, ctx.id);
        await releaseClaim(rt.db, rt.worker, ctx.id, PROTECTION_DEFERRED_MS);
        return;
      }
      // Its stop had been passed and the close at market is not done: the next round follows soon.
      if (result === 'closing') return await releaseClaim(rt.db, rt.worker, ctx.id, FOLLOW_UP_RETRY_MS);
      if (result === 'position-gone') delay = 0;
      phase = phaseOf(ctx);
    } else if (ctx.entryPrice === null && !(await learnEntryFill(rt, ctx, session))) {
      return;
    }
    if (phase === 'close') {
      const outcome = await runClose(rt, ctx, session);
      // Waiting for liquidity is not failing: the close is sent again for as long as the exchange shows a position.
      if (!outcome.closed) {
        await forgiveAttempt(rt.db, rt.worker, ctx.id);
        await releaseClaim(rt.db, rt.worker, ctx.id, outcome.retryInMs, 'The close did not fill in full; what is left keeps its stop and is sent again');
      }
      return;
    }
    if (phase === 'sync' && delay > 0) {
      const { followUpPending } = await runSync(rt, ctx, session);
      if (followUpPending) delay = FOLLOW_UP_RETRY_MS;
    }
    // A stream said something happened to it while it ran: looked at again at once.
    await releaseClaim(rt.db, rt.worker, ctx.id, rt.rechecks.delete(ctx.id) ? 0 : delay);
  } catch (error) {
    await handleFailure(rt, ctx, phase, error);
  } finally {
    rt.rechecks.delete(ctx.id);
  }
}

async function handleFailure(rt: TradingRuntime, ctx: ExecutionContext, phase: Phase, error: unknown): Promise<void> {
  const failure = classify(error);
  // A rate-limit answer means the request was not carried out: try again after the exchange's
  // one-second account window, and do not count the attempt towards giving up.
  const rateLimited = isFailure(error, 'rate_limit');
  const delay = rateLimited ? Math.max(RATE_LIMIT_RETRY_MS, backoffMs(ctx.attempts)) : backoffMs(ctx.attempts);
  if (rateLimited) {
    await forgiveAttempt(rt.db, rt.worker, ctx.id);
    ctx.attempts = Math.max(ctx.attempts - 1, 0);
  }
  rt.log.warn({ executionId: ctx.id, phase, retryable: failure.retryable, reason: failure.message }, 'execution step failed');
  if (phase === 'entry') {
    if (failure.retryable && Date.now() + delay < ctx.deadlineAt.getTime()) {
      await releaseClaim(rt.db, rt.worker, ctx.id, delay, failure.message);
      return;
    }
    const late = failure.retryable ? ` (still failing after ${Number((ctx.entryWindowMs / 1000).toFixed(1))} s of retries)` : '';
    await markEndedWithoutPosition(rt, ctx, 'failed', `${failure.message}${late}`);
    return;
  }
  if (phase === 'sync') {
    await releaseClaim(rt.db, rt.worker, ctx.id, rt.config.syncIntervalMs, failure.message);
    return;
  }
  const limit = phase === 'protect' ? PROTECT_MAX_ATTEMPTS : CLOSE_MAX_ATTEMPTS;
  if (failure.retryable && ctx.attempts < limit) {
    await releaseClaim(rt.db, rt.worker, ctx.id, delay, failure.message);
    return;
  }
  if (phase === 'protect') await markProtectionAbandoned(rt, ctx, failure.message, rt.config.syncIntervalMs);
  else await markCloseAbandoned(rt, ctx, failure.message, rt.config.syncIntervalMs);
}
