import type { CustomerExecution } from '../../../contract/api/order';

/** The customer's own result in one order (issue 28: not the order's overall one). */
export type OwnResult = 'active' | 'win' | 'loss' | 'failed' | 'skipped';

/**
 * From this customer's execution: open or pending is active; a closed position won when its own
 * realized PnL is above 0 (the rule the order's own result follows); no position: failed or skipped.
 */
export function ownResultOf(execution: Pick<CustomerExecution, 'state' | 'realizedPnl'>): OwnResult {
  if (execution.state === 'pending' || execution.state === 'open') return 'active';
  if (execution.state === 'closed') return execution.realizedPnl > 0 ? 'win' : 'loss';
  return execution.state === 'failed' ? 'failed' : 'skipped';
}
