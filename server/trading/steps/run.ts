import type { ExecutionContext } from '../context';
import { markEndedWithoutPosition } from '../execution-state/entry';
import { markCloseAbandoned, markProtectionAbandoned } from '../execution-state/position';
import { backoffMs, forgiveAttempt, releaseClaim } from '../execution-state/queue';
import type { TradingRuntime } from '../runtime';
import { runClose } from './close';
import { runEntry, learnEntryFill } from './entry';
import { classify, isFailure } from './errors';
import { runProtection } from './protect';
import { openSession } from './session';
import { runSync } from './sync';

type Phase = 'entry' | 'protect' | 'close' | 'sync';

/** Protection keeps trying well past the entry deadline: an open position must not stay naked. */
const PROTECT_MAX_ATTEMPTS = 12;
const CLOSE_MAX_ATTEMPTS = 12;
/** Retry delay after a rate-limit answer: past the exchanges' per-account window (1 s), with spacing. */
const RATE_LIMIT_RETRY_MS = 1_100;

function phaseOf(ctx: ExecutionContext): Phase {
  if (ctx.state === 'pending') return 'entry';
  if (ctx.closeRequestedAt) return 'close';
  if (!ctx.protectedAt) return 'protect';
  return 'sync';
}

/** Runs one claimed execution as far as it can go; every outcome ends the claim. */
export async function runExecution(rt: TradingRuntime, ctx: ExecutionContext): Promise<void> {
  let phase = phaseOf(ctx);
  try {
    const session = await openSession(rt, ctx);
    if (phase === 'entry') {
      // Protection goes back to the queue behind the entries still waiting: every customer's entry
      // leaves before anyone's TP/SL legs take the shared rate limit.
      if (await runEntry(rt, ctx, session)) await releaseClaim(rt.db, rt.worker, ctx.id, 0);
      return;
    }
    // An acknowledged entry's fill is read here, after the fan-out, not on the entry's hot path.
    if (ctx.entryPrice === null && !(await learnEntryFill(rt, ctx, session))) return;
    if (phase === 'protect') {
      await runProtection(rt, ctx, session);
      phase = phaseOf(ctx);
    }
    if (phase === 'close') {
      await runClose(rt, ctx, session);
      return;
    }
    if (phase === 'sync' && ctx.state === 'open') {
      await runSync(rt, ctx, session);
    }
    await releaseClaim(rt.db, rt.worker, ctx.id, rt.config.syncIntervalMs);
  } catch (error) {
    await handleFailure(rt, ctx, phase, error);
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
    const late = failure.retryable ? ` (still failing after ${Math.round(rt.config.entryDeadlineMs / 1000)} s of retries)` : '';
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
