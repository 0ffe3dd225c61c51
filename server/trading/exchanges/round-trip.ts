import { clientOrderId } from './client-order-id';
import { floorToStep, roundToTick } from './markets';
import { roundTripSteps } from './round-trip-steps';
import type { Outcome, RoundTripContext, RoundTripInput, StepResult } from './round-trip-types';
import { ExchangeFailure, type MarketInfo } from './types';

/**
 * One small trading round trip on an exchange account through the adapters the engine uses: the
 * check an operator runs on Bybit testnet / Bitget demo trading before going live (and that the tests
 * run against the sandbox). Each step says what the exchange documents; the table shows what it did.
 */
/** The smallest long worth a round trip: three times the minimum, so two TP legs and a probe fit. */
function quantityFor(market: MarketInfo, price: number): number {
  const minimum = Math.max(market.minQty, (market.minNotional * 1.2) / price);
  return floorToStep(Math.ceil(minimum / market.qtyStep) * market.qtyStep * 3, market.qtyStep);
}

export async function runRoundTrip(input: RoundTripInput): Promise<StepResult[]> {
  const market = await input.adapter.market(input.symbol);
  const run = Date.now().toString(36);
  const ctx: RoundTripContext = {
    ...input,
    market,
    quantity: quantityFor(market, input.price),
    id: (leg) => clientOrderId({ orderId: run, customerId: 0, leg }),
    at: (factor) => roundToTick(input.price * factor, market.tickSize),
    entryPrice: input.price,
  };
  const results: StepResult[] = [];
  for (const step of roundTripSteps) {
    const sent = input.recorder.since();
    let outcome: Outcome = 'ok';
    let detail: string;
    try {
      detail = await step.run(ctx);
    } catch (error) {
      outcome = error instanceof ExchangeFailure ? error.code : 'unexpected';
      detail = error instanceof Error ? error.message : String(error);
    }
    const passed = step.expect.includes(outcome);
    results.push({
      name: step.name,
      verdict: passed ? 'PASS' : step.probe ? 'DIFFERS' : 'FAIL',
      outcome,
      detail,
      probe: step.probe,
      answers: sent().map(({ method, path, status, code, message }) => ({ method, path, status, code, message })),
    });
  }
  return results;
}
