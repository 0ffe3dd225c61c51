import type { RecordedExchange, RecordingFetch } from './recording-fetch';
import type { Credentials, ExchangeAdapter, FailureCode, MarketInfo, PositionModeName } from './types';

/** 'unexpected': the step failed for a reason of its own (e.g. an order that never filled), not an exchange refusal. */
export type Outcome = 'ok' | FailureCode | 'unexpected';

export interface RoundTripStep {
  name: string;
  /** Answers that count as a pass (the first is the documented one). */
  expect: readonly Outcome[];
  /**
   * A probe asks something the documents disagree on (LIVE-FIDELITY "unverified" rows): an answer
   * other than the expected one is reported as DIFFERS, not as a failure of the check.
   */
  probe?: string;
  run(ctx: RoundTripContext): Promise<string>;
}

export interface StepResult {
  name: string;
  verdict: 'PASS' | 'FAIL' | 'DIFFERS';
  outcome: Outcome;
  detail: string;
  probe: string | undefined;
  answers: Array<Pick<RecordedExchange, 'method' | 'path' | 'status' | 'code' | 'message'>>;
}

export interface RoundTripInput {
  adapter: ExchangeAdapter;
  credentials: Credentials;
  symbol: string;
  mode: PositionModeName;
  leverage: number;
  /** The symbol's current price, to size the entry and its levels. */
  price: number;
  recorder: RecordingFetch;
  /** Called once the entry has filled (the sandbox run moves its market up there; on an exchange the market decides). */
  onFilled?: (entryPrice: number) => Promise<void> | void;
}

export interface RoundTripContext extends RoundTripInput {
  market: MarketInfo;
  quantity: number;
  /** Our client order id of a leg of this run. */
  id: (leg: string) => string;
  /** The start price times `factor`, on the tick. */
  at: (factor: number) => number;
  /** The entry's fill price once known (the start price before). */
  entryPrice: number;
}
