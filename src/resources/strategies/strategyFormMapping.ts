import type { z } from 'zod';
import { AmountType, CustomerGroup, EntryDirection, TakeProfitMode } from '../../../contract/enums';
import type { Strategy, strategyInput } from '../../../contract/api/strategy';
import { emptyStrategyForm, type GroupRow, type StrategyFormValues } from './strategyFormValues';

export type StrategyInput = z.input<typeof strategyInput>;

const text = (value: number | null | undefined) => (value === null || value === undefined ? '' : String(value));

function amountOf(dollar: string, percent: string) {
  if (dollar !== '') return { type: AmountType.Dollar, amount: dollar };
  if (percent !== '') return { type: AmountType.Percent, amount: percent };
  return null;
}

function groupInput(row: GroupRow) {
  if (row.dollar !== '') return { group: row.group, investAmount: { type: AmountType.Dollar, amount: row.dollar } };
  if (row.quantity !== '') return { group: row.group, investAmount: { type: AmountType.Quantity, amount: row.quantity } };
  return { group: row.group, investAmount: null };
}

/** The form as the contract's lenient strategy input (the same object the server validates). */
export function toStrategyInput(values: StrategyFormValues): StrategyInput {
  const full = values.takeProfitMode === TakeProfitMode.Full;
  return {
    id: values.id,
    symbol: values.symbol,
    groups: values.groups.map(groupInput),
    entryDirection: values.entryDirection,
    leverage: values.leverage,
    positionMode: values.positionMode === '' ? null : values.positionMode,
    takeProfitType: values.takeProfitType,
    takeProfitMode: values.takeProfitMode,
    tp1: { targetLevel: values.tp1Target, closeVolume: full ? 100 : values.tp1Volume },
    tp2: { targetLevel: full ? null : values.tp2Target, closeVolume: full ? 0 : values.tp2Volume },
    tp3: { targetLevel: full ? null : values.tp3Target, closeVolume: null },
    stopLoss: { type: values.stopLossType, amount: values.stopLossAmount },
    advanceStopLoss: values.advanceStopLoss,
    trailingStop: values.trailingStop,
    positionActivation: values.trailingStop ? amountOf(values.activationDollar, values.activationPercent) : null,
    positionClose: values.trailingStop ? amountOf(values.closeDollar, values.closePercent) : null,
    exclusiveCustomerId: values.exclusiveCustomerId,
  };
}

/** The PATCH body of a saved strategy: groups, stop loss and exclusive customer. */
export function toStrategyUpdateInput(values: StrategyFormValues) {
  const input = toStrategyInput(values);
  return { groups: input.groups ?? [], stopLoss: input.stopLoss, exclusiveCustomerId: input.exclusiveCustomerId };
}

function splitAmount(amount: { type: number | null; amount: number | null }): [string, string] {
  if (amount.type === AmountType.Dollar) return [text(amount.amount), ''];
  if (amount.type === AmountType.Percent) return ['', text(amount.amount)];
  return ['', ''];
}

/** A saved strategy as form values. */
export function fromStrategy(strategy: Strategy): StrategyFormValues {
  const [activationDollar, activationPercent] = splitAmount(strategy.positionActivation);
  const [closeDollar, closePercent] = splitAmount(strategy.positionClose);
  return {
    ...emptyStrategyForm,
    id: strategy.id,
    symbol: strategy.symbol,
    entryDirection: strategy.entryDirection as EntryDirection,
    leverage: String(strategy.leverage),
    positionMode: strategy.positionMode,
    groups: strategy.groups.map((row) => ({
      group: row.group as CustomerGroup,
      dollar: row.investAmount.type === AmountType.Dollar ? String(row.investAmount.amount) : '',
      quantity: row.investAmount.type === AmountType.Quantity ? String(row.investAmount.amount) : '',
    })),
    exclusiveCustomerId: strategy.exclusiveCustomerId,
    takeProfitType: strategy.takeProfitType as AmountType,
    takeProfitMode: strategy.takeProfitMode as TakeProfitMode,
    tp1Target: text(strategy.tp1.targetLevel),
    tp2Target: text(strategy.tp2.targetLevel),
    tp3Target: text(strategy.tp3.targetLevel),
    tp1Volume: String(strategy.tp1.closeVolume),
    tp2Volume: String(strategy.tp2.closeVolume),
    stopLossType: strategy.stopLoss.type as AmountType,
    stopLossAmount: String(strategy.stopLoss.amount),
    advanceStopLoss: strategy.advanceStopLoss,
    trailingStop: strategy.trailingStop,
    activationDollar,
    activationPercent,
    closeDollar,
    closePercent,
  };
}
