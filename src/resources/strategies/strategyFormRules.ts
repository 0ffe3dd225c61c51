import { CustomerGroup, TakeProfitMode } from '../../../contract/enums';
import type { GroupRow, StrategyFormValues } from './strategyFormValues';

/**
 * The dependencies of the settings form (spec section 4), as pure functions from one state to
 * the next. The form calls `applyChange` for every edit.
 */
export type StrategyChange =
  | { field: 'trailingStop'; value: boolean }
  | { field: 'takeProfitMode'; value: TakeProfitMode }
  | { field: 'toggleGroup'; value: CustomerGroup }
  | { field: 'groupAmount'; group: CustomerGroup; kind: 'dollar' | 'quantity'; value: string }
  | { field: 'activationDollar' | 'activationPercent' | 'closeDollar' | 'closePercent'; value: string }
  | { field: 'tp1Volume' | 'tp2Volume'; value: string }
  | { field: 'other'; patch: Partial<StrategyFormValues> };

/** TP3 closes what TP1 and TP2 leave (Partial mode); Full mode closes everything at TP1. */
export function tp3Volume(values: Pick<StrategyFormValues, 'takeProfitMode' | 'tp1Volume' | 'tp2Volume'>): number {
  if (values.takeProfitMode === TakeProfitMode.Full) return 0;
  const rest = 100 - (Number(values.tp1Volume) || 0) - (Number(values.tp2Volume) || 0);
  return Math.max(0, Math.round(rest * 100) / 100);
}

/** 'Enter correct values' applies when TP1 and TP2 together close more than 100 %. */
export function tpVolumesTooHigh(values: Pick<StrategyFormValues, 'takeProfitMode' | 'tp1Volume' | 'tp2Volume'>): boolean {
  if (values.takeProfitMode === TakeProfitMode.Full) return false;
  return (Number(values.tp1Volume) || 0) + (Number(values.tp2Volume) || 0) > 100;
}

export function hasGroup(values: StrategyFormValues, group: CustomerGroup): boolean {
  return values.groups.some((row) => row.group === group);
}

/** Exclusive can be chosen only while Internal is chosen. */
export function isGroupSelectable(values: StrategyFormValues, group: CustomerGroup): boolean {
  return group !== CustomerGroup.Exclusive || hasGroup(values, CustomerGroup.Internal);
}

function toggleGroup(values: StrategyFormValues, group: CustomerGroup): StrategyFormValues {
  if (hasGroup(values, group)) {
    let groups = values.groups.filter((row) => row.group !== group);
    let exclusiveCustomerId = values.exclusiveCustomerId;
    if (group === CustomerGroup.Internal || group === CustomerGroup.Exclusive) {
      if (group === CustomerGroup.Internal) groups = groups.filter((row) => row.group !== CustomerGroup.Exclusive);
      exclusiveCustomerId = null;
    }
    return { ...values, groups, exclusiveCustomerId };
  }
  if (!isGroupSelectable(values, group)) return values;
  const row: GroupRow = { group, dollar: '', quantity: '' };
  return { ...values, groups: [...values.groups, row] };
}

/** Per group, dollar and quantity are mutually exclusive: typing one clears the other. */
function setGroupAmount(values: StrategyFormValues, group: CustomerGroup, kind: 'dollar' | 'quantity', value: string): StrategyFormValues {
  const groups = values.groups.map((row) => {
    if (row.group !== group) return row;
    return kind === 'dollar' ? { ...row, dollar: value, quantity: '' } : { ...row, quantity: value, dollar: '' };
  });
  return { ...values, groups };
}

export function applyChange(values: StrategyFormValues, change: StrategyChange): StrategyFormValues {
  switch (change.field) {
    case 'trailingStop':
      return change.value
        ? { ...values, trailingStop: true }
        : { ...values, trailingStop: false, activationDollar: '', activationPercent: '', closeDollar: '', closePercent: '' };
    case 'takeProfitMode':
      return change.value === TakeProfitMode.Full
        ? { ...values, takeProfitMode: change.value, tp2Target: '', tp3Target: '', tp1Volume: '100', tp2Volume: '0' }
        : { ...values, takeProfitMode: change.value, tp1Volume: '', tp2Volume: '' };
    case 'toggleGroup':
      return toggleGroup(values, change.value);
    case 'groupAmount':
      return setGroupAmount(values, change.group, change.kind, change.value);
    case 'activationDollar':
      return { ...values, activationDollar: change.value, activationPercent: '' };
    case 'activationPercent':
      return { ...values, activationPercent: change.value, activationDollar: '' };
    case 'closeDollar':
      return { ...values, closeDollar: change.value, closePercent: '' };
    case 'closePercent':
      return { ...values, closePercent: change.value, closeDollar: '' };
    case 'tp1Volume':
    case 'tp2Volume':
      return values.takeProfitMode === TakeProfitMode.Full ? values : { ...values, [change.field]: change.value };
    case 'other':
      return { ...values, ...change.patch };
  }
}

/** Which inputs the dependencies switch off. */
export function disabledInputs(values: StrategyFormValues) {
  const full = values.takeProfitMode === TakeProfitMode.Full;
  const trailingOff = !values.trailingStop;
  return {
    tp2Target: full,
    tp3Target: full,
    tp1Volume: full,
    tp2Volume: full,
    activationDollar: trailingOff || values.activationPercent !== '',
    activationPercent: trailingOff || values.activationDollar !== '',
    closeDollar: trailingOff || values.closePercent !== '',
    closePercent: trailingOff || values.closeDollar !== '',
  };
}
