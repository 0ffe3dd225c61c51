/**
 * Rows of LIVE-FIDELITY that the exchanges' documents leave open (marked unverified there). Each one is a
 * switch; `true`, the default, is the stricter reading. One run on Bybit testnet / Bitget demo trading
 * settles a row; until then tests run against the stricter one.
 */
export interface Strictness {
  /**
   * A2, Bybit: a plain conditional reduce-only order (order/create with triggerPrice) stays Untriggered when
   * its position closes; only the TP/SL/trailing of `position/trading-stop` (and those attached to an entry)
   * go with the position. Off: every reduce-only order is cancelled with the position.
   */
  bybitConditionalSurvivesClose: boolean;
  /** A1, Bitget 40833/40835: a position stop loss at or beyond the average open price is refused. */
  bitgetStopAtEntryRefused: boolean;
  /** B4, Bitget 40920 also for a set-position-mode call that changes nothing, while anything is open. */
  bitgetSamePositionModeRefused: boolean;
  /** B5, Bitget 22042: a trigger order (place-plan-order) with reduceOnly YES in one-way mode is refused. */
  bitgetOneWayReduceOnlyTriggerRefused: boolean;
  /** B6, Bitget 43030/43031: a second pos_profit/pos_loss on a position that has one is refused (off: replaces it). */
  bitgetSecondPositionTpslRefused: boolean;
  /**
   * B12, Bitget 40757: a one-way reduce-only order larger than the position is refused (Bitget's V1 mix
   * update log of 2023-10-30; the V2 pages say nothing). Off: it is cut to the position size.
   */
  bitgetOversizedReduceOnlyRefused: boolean;
  /**
   * D1/D2, Bitget 22045 "Insufficient liquidity in the market, please operate later": a market order the book
   * has nothing in reach for is refused (the error list names no endpoint; Bitget documents no order state for
   * the other reading). Off: it is accepted and `canceled` unfilled, as Bybit documents for its own market orders.
   */
  bitgetEmptyBookRefused: boolean;
  /**
   * Bitget's private WebSocket: "The connection will break automatically if no subscription in 30s after
   * connection established or no string "ping" sent for more than 30 seconds" (the older websocket-intro
   * text); the newer one says "if there is no string "ping" received for 2 min". Off: 2 minutes, and no
   * subscription deadline.
   */
  bitgetStreamKeepalive30s: boolean;
}

export const strictnessNames = [
  'bybitConditionalSurvivesClose',
  'bitgetStopAtEntryRefused',
  'bitgetSamePositionModeRefused',
  'bitgetOneWayReduceOnlyTriggerRefused',
  'bitgetSecondPositionTpslRefused',
  'bitgetOversizedReduceOnlyRefused',
  'bitgetEmptyBookRefused',
  'bitgetStreamKeepalive30s',
] as const satisfies ReadonlyArray<keyof Strictness>;

/** The stricter reading of every unverified row. */
export function strictDefaults(): Strictness {
  return {
    bybitConditionalSurvivesClose: true,
    bitgetStopAtEntryRefused: true,
    bitgetSamePositionModeRefused: true,
    bitgetOneWayReduceOnlyTriggerRefused: true,
    bitgetSecondPositionTpslRefused: true,
    bitgetOversizedReduceOnlyRefused: true,
    bitgetEmptyBookRefused: true,
    bitgetStreamKeepalive30s: true,
  };
}

export function withStrictness(base: Strictness, update: Partial<Strictness> = {}): Strictness {
  const next = { ...base };
  for (const name of strictnessNames) {
    const value = update[name];
    if (value !== undefined) next[name] = value;
  }
  return next;
}
