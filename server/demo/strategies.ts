import { strategyCreateBody } from '../../contract/api/strategy';
import { AmountType, CustomerGroup, EntryDirection, PositionMode, TakeProfitMode } from '../../contract/enums';
import type { Deps } from '../deps';
import { createStrategy } from '../modules/strategies/service';
import { demoSymbolCheck } from './market';

/** One demo strategy: its form, how its entries arrive, and how often it trades. */
export interface DemoStrategy {
  id: string;
  symbol: string;
  direction: EntryDirection;
  /** Entries by TradingView alert (webhook) or by staff pressing Open Long / Open Short. */
  via: 'webhook' | 'manual';
  /** Average days between two of its orders. */
  everyDays: number;
  form: Record<string, unknown>;
}

const dollars = (group: CustomerGroup, amount: number) => ({ group, investAmount: { type: AmountType.Dollar, amount } });
const percent = (amount: number) => ({ type: AmountType.Percent, amount });
const noTrailing = { trailingStop: false, positionActivation: { type: null, amount: null }, positionClose: { type: null, amount: null } };

const partial = (levels: [number, number, number], volumes: [number, number]) => ({
  takeProfitType: AmountType.Percent,
  takeProfitMode: TakeProfitMode.Partial,
  tp1: { targetLevel: levels[0], closeVolume: volumes[0] },
  tp2: { targetLevel: levels[1], closeVolume: volumes[1] },
  tp3: { targetLevel: levels[2], closeVolume: 100 - volumes[0] - volumes[1] },
});
const full = (level: number) => ({
  takeProfitType: AmountType.Percent,
  takeProfitMode: TakeProfitMode.Full,
  tp1: { targetLevel: level, closeVolume: 100 },
  tp2: { targetLevel: null, closeVolume: null },
  tp3: { targetLevel: null, closeVolume: null },
});

const strategy = (
  id: string,
  symbol: string,
  direction: EntryDirection,
  via: DemoStrategy['via'],
  everyDays: number,
  form: Record<string, unknown>,
): DemoStrategy => ({
  id,
  symbol,
  direction,
  via,
  everyDays,
  form: { id, symbol, entryDirection: direction, positionMode: PositionMode.OneWay, exclusiveCustomerId: null, ...noTrailing, ...form },
});

/**
 * Five strategies over the sandbox's symbols. DOGE's Occasion amount (35 DOGE) is below the exchange's
 * minimum order value of 5 USDT while DOGE trades under about 0.143 USDT (its first months in the demo's
 * price path): those entries are skipped, as the engine's sizing skips them.
 */
export const demoStrategies: DemoStrategy[] = [
  strategy('BTC-TREND', 'BTCUSDT', EntryDirection.Long, 'webhook', 16, {
    groups: [dollars(CustomerGroup.Gold, 250), dollars(CustomerGroup.Vip, 600), dollars(CustomerGroup.Internal, 100)],
    leverage: 10,
    ...partial([1.5, 3, 4.5], [50, 30]),
    stopLoss: percent(2),
    advanceStopLoss: true,
  }),
  strategy('ETH-SWING', 'ETHUSDT', EntryDirection.Short, 'webhook', 22, {
    groups: [dollars(CustomerGroup.Gold, 150), dollars(CustomerGroup.Occasion, 80)],
    leverage: 5,
    ...full(3),
    stopLoss: percent(1.5),
    advanceStopLoss: false,
  }),
  strategy('SOL-MOMENTUM', 'SOLUSDT', EntryDirection.Long, 'webhook', 26, {
    groups: [dollars(CustomerGroup.Vip, 300), dollars(CustomerGroup.Internal, 120), dollars(CustomerGroup.Occasion, 60)],
    leverage: 8,
    ...partial([2, 4, 6], [40, 40]),
    stopLoss: percent(2.5),
    advanceStopLoss: true,
  }),
  strategy('XRP-BREAKOUT', 'XRPUSDT', EntryDirection.Long, 'manual', 36, {
    groups: [dollars(CustomerGroup.Gold, 120), dollars(CustomerGroup.Vip, 250), dollars(CustomerGroup.Occasion, 60)],
    leverage: 5,
    ...full(4),
    stopLoss: percent(2),
    advanceStopLoss: false,
  }),
  strategy('DOGE-SCALP', 'DOGEUSDT', EntryDirection.Short, 'manual', 45, {
    groups: [dollars(CustomerGroup.Internal, 80), dollars(CustomerGroup.Gold, 100), { group: CustomerGroup.Occasion, investAmount: { type: AmountType.Quantity, amount: 35 } }],
    leverage: 10,
    ...partial([1, 2, 3], [50, 25]),
    stopLoss: percent(1),
    advanceStopLoss: true,
  }),
];

/** Creates the demo strategies as the admin's strategy form does (same body validation and service). */
export async function createDemoStrategies(deps: Deps, adminAccountId: number): Promise<void> {
  for (const demo of demoStrategies) await createStrategy(deps, demoSymbolCheck, strategyCreateBody.parse(demo.form), adminAccountId);
}
