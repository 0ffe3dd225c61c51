import { setTimeout as sleep } from 'node:timers/promises';
import { roundToTick } from './markets';
import type { RoundTripContext, RoundTripStep } from './round-trip-types';
import type { PlacedOrder } from './types';

/** A step failing for a reason of ours (not an exchange refusal). */
class CheckFailed extends Error {}

const long = 'long' as const;
const half = (ctx: RoundTripContext) => Math.max(ctx.market.minQty, Math.floor(ctx.quantity / 2 / ctx.market.qtyStep) * ctx.market.qtyStep);
const fixed = (ctx: RoundTripContext, value: number) => Number(value.toFixed(8)).toString();

async function readFill(ctx: RoundTripContext, clientOrderId: string): Promise<PlacedOrder> {
  for (let round = 0; round < 6; round += 1) {
    const order = await ctx.adapter.fetchOrderByClientId(ctx.credentials, ctx.symbol, clientOrderId, 'order');
    if (order && order.status === 'closed' && order.avgPrice !== undefined) return order;
    await sleep(300 * (round + 1));
  }
  throw new CheckFailed(`${clientOrderId} is not filled after six reads`);
}

/** The documented answers; each step's name says what it does, `probe` what an unverified row asks. */
export const roundTripSteps: RoundTripStep[] = [
  {
    name: 'Market',
    expect: ['ok'],
    run: async (ctx) => `${ctx.symbol}: min ${ctx.market.minQty}, step ${ctx.market.qtyStep}, tick ${ctx.market.tickSize}; round trip of ${fixed(ctx, ctx.quantity)}`,
  },
  {
    name: 'Key check',
    expect: ['ok'],
    run: async (ctx) => {
      const check = await ctx.adapter.checkKey(ctx.credentials);
      if (!check.valid || !check.canTrade) throw new CheckFailed(check.error ?? 'the key cannot trade');
      const unverified = check.unverified?.length ? `; not readable: ${check.unverified.join(', ')}` : '';
      const margin = check.marginMode ? `, margin ${check.marginMode}` : '';
      return `valid, can trade, withdraw ${check.canWithdraw ? 'ON' : 'off'}, IP bound ${check.ipBound ? 'yes' : 'no'}, mode ${check.positionMode ?? 'unknown'}${margin}${unverified}`;
    },
  },
  {
    name: 'Balance',
    expect: ['ok'],
    run: async (ctx) => {
      const balance = await ctx.adapter.fetchBalance(ctx.credentials);
      const needed = (ctx.quantity * ctx.entryPrice) / ctx.leverage + 1;
      if (balance.free < needed) throw new CheckFailed(`free ${balance.free} USDT, the round trip needs about ${needed.toFixed(2)}`);
      return `free ${balance.free} of ${balance.total} USDT`;
    },
  },
  { name: 'Position mode', expect: ['ok'], run: async (ctx) => (await ctx.adapter.setPositionMode(ctx.credentials, ctx.symbol, ctx.mode), ctx.mode) },
  { name: 'Leverage', expect: ['ok'], run: async (ctx) => (await ctx.adapter.setLeverage(ctx.credentials, ctx.symbol, ctx.leverage), `${ctx.leverage}x`) },
  {
    name: 'Leverage again (unchanged)',
    expect: ['ok'],
    probe: 'B12: unchanged leverage answers Bybit 110043 / Bitget 45054, taken as success',
    run: async (ctx) => (await ctx.adapter.setLeverage(ctx.credentials, ctx.symbol, ctx.leverage), 'unchanged is success'),
  },
  {
    name: 'Entry with stop loss',
    expect: ['ok'],
    run: async (ctx) => {
      const stop = ctx.at(0.97);
      const placed = await ctx.adapter.placeEntry(ctx.credentials, { symbol: ctx.symbol, side: long, quantity: ctx.quantity, clientOrderId: ctx.id('e'), positionMode: ctx.mode, stopLossPrice: stop });
      return `buy ${fixed(ctx, ctx.quantity)} at market, stop ${stop}: order ${placed.exchangeOrderId ?? '(id not returned)'}`;
    },
  },
  {
    name: 'Entry fill (lookup by client id)',
    expect: ['ok'],
    run: async (ctx) => {
      const filled = await readFill(ctx, ctx.id('e'));
      ctx.entryPrice = filled.avgPrice!;
      await ctx.onFilled?.(filled.avgPrice!);
      return `filled ${filled.filledQty} at ${filled.avgPrice}`;
    },
  },
  {
    name: 'Switch position mode with a position open',
    expect: ['invalid_request', 'ok'],
    probe: 'B4: refused while anything is open (Bybit 110024, Bitget 40920)',
    run: async (ctx) => {
      const other = ctx.mode === 'oneway' ? 'hedge' : 'oneway';
      await ctx.adapter.setPositionMode(ctx.credentials, ctx.symbol, other);
      // By design a Bitget hedge account keeps hedge mode for a one-way strategy: nothing is refused.
      if (ctx.adapter.exchange === 'bitget' && other === 'oneway') return 'kept hedge mode: a one-way strategy trades in its own slot';
      throw new CheckFailed(`the exchange switched to ${other} with a position open`);
    },
  },
  {
    name: 'Take-profit legs',
    expect: ['ok'],
    run: async (ctx) => {
      const first = half(ctx);
      const tp1 = ctx.at(1.015);
      const tp2 = ctx.at(1.03);
      await ctx.adapter.placeTakeProfit(ctx.credentials, { symbol: ctx.symbol, side: long, quantity: first, clientOrderId: ctx.id('tp1'), positionMode: ctx.mode, triggerPrice: tp1 });
      await ctx.adapter.placeTakeProfit(ctx.credentials, { symbol: ctx.symbol, side: long, quantity: Number((ctx.quantity - first).toFixed(8)), clientOrderId: ctx.id('tp2'), positionMode: ctx.mode, triggerPrice: tp2 });
      return `TP1 ${fixed(ctx, first)} at ${tp1}, TP2 the rest at ${tp2}`;
    },
  },
  {
    name: 'Take-profit lookup (at most two reads)',
    expect: ['ok'],
    run: async (ctx) => {
      const sent = ctx.recorder.since();
      const found = await ctx.adapter.fetchOrderByClientId(ctx.credentials, ctx.symbol, ctx.id('tp1'));
      const reads = sent().length;
      if (!found || reads > 2) throw new CheckFailed(`${found ? found.status : 'not found'} after ${reads} reads`);
      return `${found.status} after ${reads} read(s)`;
    },
  },
  {
    name: 'Trailing stop',
    expect: ['ok'],
    run: async (ctx) => {
      const activation = ctx.at(1.02);
      await ctx.adapter.placeTrailingStop(ctx.credentials, { symbol: ctx.symbol, side: long, quantity: ctx.quantity, clientOrderId: ctx.id('tr'), positionMode: ctx.mode, activationPrice: activation, callback: { type: 'percent', value: 1 } });
      return `activation ${activation}, callback 1%`;
    },
  },
  {
    name: 'Stop loss to entry',
    expect: ['ok', 'level_passed'],
    probe: 'A1: a stop exactly at the entry price (Bitget 40833 unverified); level_passed as well when the market is below the entry',
    run: async (ctx) => (await ctx.adapter.setStopLoss(ctx.credentials, { symbol: ctx.symbol, side: long, price: ctx.entryPrice, positionMode: ctx.mode }), `stop at ${ctx.entryPrice}`),
  },
  {
    name: 'Stop loss one tick below entry',
    expect: ['ok', 'level_passed'],
    probe: 'A1: accepted while the market is above the entry',
    run: async (ctx) => {
      const price = roundToTick(ctx.entryPrice - ctx.market.tickSize, ctx.market.tickSize);
      await ctx.adapter.setStopLoss(ctx.credentials, { symbol: ctx.symbol, side: long, price, positionMode: ctx.mode });
      return `stop at ${price}`;
    },
  },
  {
    name: 'Stop loss again (unchanged)',
    expect: ['ok', 'level_passed'],
    probe: 'B1/B6: Bybit 34040 "Not modified" taken as success; Bitget moves its one pos_loss (modify-tpsl-order)',
    run: async (ctx) => {
      const price = roundToTick(ctx.entryPrice - ctx.market.tickSize, ctx.market.tickSize);
      await ctx.adapter.setStopLoss(ctx.credentials, { symbol: ctx.symbol, side: long, price, positionMode: ctx.mode });
      return 'unchanged is success';
    },
  },
  {
    name: 'Take-profit below the market (crossed)',
    expect: ['trigger_crossed'],
    probe: 'B2: refused as already crossed (Bybit 110092/110093, Bitget 40915/40830)',
    run: async (ctx) => {
      await ctx.adapter.placeTakeProfit(ctx.credentials, { symbol: ctx.symbol, side: long, quantity: ctx.market.minQty, clientOrderId: ctx.id('tp3'), positionMode: ctx.mode, triggerPrice: ctx.at(0.98) });
      return 'accepted';
    },
  },
  {
    name: 'Stop loss above the market (passed)',
    expect: ['level_passed'],
    probe: 'A1: refused as on the wrong side (Bybit 10001, Bitget 40917/45122/40834)',
    run: async (ctx) => (await ctx.adapter.setStopLoss(ctx.credentials, { symbol: ctx.symbol, side: long, price: ctx.at(1.02), positionMode: ctx.mode }), 'accepted'),
  },
  {
    name: 'Close',
    expect: ['ok'],
    run: async (ctx) => {
      const closed = await ctx.adapter.closePosition(ctx.credentials, { symbol: ctx.symbol, side: long, clientOrderId: ctx.id('x'), positionMode: ctx.mode });
      return closed ? `sold ${closed.filledQty} at ${closed.avgPrice ?? '?'}` : 'already flat';
    },
  },
  {
    name: 'Close again (already flat)',
    expect: ['ok'],
    run: async (ctx) => {
      const again = await ctx.adapter.closePosition(ctx.credentials, { symbol: ctx.symbol, side: long, clientOrderId: ctx.id('x2'), positionMode: ctx.mode });
      if (again) throw new CheckFailed(`closed ${again.filledQty} more: the position was not flat`);
      return 'no position: nothing sent twice';
    },
  },
  {
    name: 'Take-profit legs after the close',
    expect: ['ok'],
    probe: 'A2: plain conditional orders outlive the position on Bybit (unverified): cancelled here either way',
    run: async (ctx) => {
      const legs = await Promise.all(['tp1', 'tp2'].map((leg) => ctx.adapter.fetchOrderByClientId(ctx.credentials, ctx.symbol, ctx.id(leg))));
      const open = legs.filter((leg) => leg?.status === 'open').length;
      for (const leg of ['tp1', 'tp2', 'tp3', 'tr']) await ctx.adapter.cancelOrder(ctx.credentials, ctx.symbol, ctx.id(leg));
      return open ? `${open} of 2 were still open after the close, now cancelled` : 'cancelled with the position';
    },
  },
];
