import { describe, expect, it } from 'vitest';
import { CustomerGroup, TakeProfitMode } from '../../../contract/enums';
import { applyChange, disabledInputs, isGroupSelectable, tp3Volume } from './strategyFormRules';
import { emptyStrategyForm } from './strategyFormValues';

describe('strategy form dependencies (spec 4)', () => {
  it('trailing stop off clears and disables activation and close', () => {
    let values = applyChange(emptyStrategyForm, { field: 'trailingStop', value: true });
    values = applyChange(values, { field: 'activationDollar', value: '5' });
    values = applyChange(values, { field: 'closePercent', value: '1' });
    expect(disabledInputs(values).activationPercent).toBe(true);
    expect(disabledInputs(values).closeDollar).toBe(true);
    values = applyChange(values, { field: 'trailingStop', value: false });
    expect([values.activationDollar, values.activationPercent, values.closeDollar, values.closePercent]).toEqual(['', '', '', '']);
    expect(disabledInputs(values)).toMatchObject({ activationDollar: true, activationPercent: true, closeDollar: true, closePercent: true });
  });

  it('$ and % of activation exclude each other', () => {
    let values = applyChange(emptyStrategyForm, { field: 'trailingStop', value: true });
    values = applyChange(values, { field: 'activationPercent', value: '2' });
    values = applyChange(values, { field: 'activationDollar', value: '7' });
    expect([values.activationDollar, values.activationPercent]).toEqual(['7', '']);
  });

  it('Full mode clears TP2, TP3 and the volumes; Partial computes TP3 = 100 - TP1 - TP2', () => {
    let values = applyChange(emptyStrategyForm, { field: 'takeProfitMode', value: TakeProfitMode.Partial });
    values = { ...values, tp2Target: '3', tp3Target: '4' };
    values = applyChange(values, { field: 'tp1Volume', value: '30' });
    values = applyChange(values, { field: 'tp2Volume', value: '45' });
    expect(tp3Volume(values)).toBe(25);
    values = applyChange(values, { field: 'takeProfitMode', value: TakeProfitMode.Full });
    expect([values.tp2Target, values.tp3Target, values.tp1Volume, values.tp2Volume]).toEqual(['', '', '100', '0']);
    expect(tp3Volume(values)).toBe(0);
    expect(disabledInputs(values)).toMatchObject({ tp2Target: true, tp3Target: true, tp1Volume: true, tp2Volume: true });
  });

  it('Exclusive needs Internal; unchecking Internal removes Exclusive and its customer', () => {
    expect(isGroupSelectable(emptyStrategyForm, CustomerGroup.Exclusive)).toBe(false);
    expect(applyChange(emptyStrategyForm, { field: 'toggleGroup', value: CustomerGroup.Exclusive }).groups).toEqual([]);
    let values = applyChange(emptyStrategyForm, { field: 'toggleGroup', value: CustomerGroup.Internal });
    values = applyChange(values, { field: 'toggleGroup', value: CustomerGroup.Exclusive });
    values = { ...values, exclusiveCustomerId: 4 };
    values = applyChange(values, { field: 'toggleGroup', value: CustomerGroup.Internal });
    expect(values.groups).toEqual([]);
    expect(values.exclusiveCustomerId).toBeNull();
  });

  it('dollar and quantity of a group exclude each other', () => {
    let values = applyChange(emptyStrategyForm, { field: 'toggleGroup', value: CustomerGroup.Gold });
    values = applyChange(values, { field: 'groupAmount', group: CustomerGroup.Gold, kind: 'dollar', value: '10' });
    values = applyChange(values, { field: 'groupAmount', group: CustomerGroup.Gold, kind: 'quantity', value: '2' });
    expect(values.groups).toEqual([{ group: CustomerGroup.Gold, dollar: '', quantity: '2' }]);
  });
});
