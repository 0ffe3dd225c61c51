import { describe, expect, it } from 'vitest';
import { AmountType, CustomerGroup, TakeProfitMode } from '../../../contract/enums';
import { validation } from '../../../contract/messages';
import { applyChange } from './strategyFormRules';
import { strategyFormSchema } from './strategyFormSchema';
import { emptyStrategyForm, type StrategyFormValues } from './strategyFormValues';

const valid: StrategyFormValues = {
  ...emptyStrategyForm,
  id: 'BTC001',
  symbol: 'BTCUSDT',
  leverage: '50',
  positionMode: 1,
  groups: [{ group: CustomerGroup.Gold, dollar: '100', quantity: '' }],
  tp1Target: '2',
  stopLossAmount: '1',
};

/** The form's errors by field, as the zodResolver hands them to the form. */
function validateStrategyForm(values: StrategyFormValues, saved: boolean): Record<string, string> {
  const result = strategyFormSchema(saved).safeParse(values);
  return result.success ? {} : Object.fromEntries(result.error.issues.map((issue) => [issue.path.join('.'), issue.message]));
}

describe('strategy form validation (contract schema)', () => {
  it('accepts a complete form', () => {
    expect(validateStrategyForm(valid, false)).toEqual({});
  });

  it('gives every required-field message of spec 5 on an empty form', () => {
    const errors = validateStrategyForm(emptyStrategyForm, false);
    expect(errors.symbol).toBe(validation.symbolRequired);
    expect(errors.id).toBe(validation.strategyIdRequired);
    expect(errors.leverage).toBe(validation.leverageRequired);
    expect(errors.positionMode).toBe(validation.selectOption);
    expect(errors.tp1Target).toBe(validation.takeProfitRequired);
    expect(errors.stopLossAmount).toBe(validation.stopLossRequired);
  });

  it('requires every TP level in Partial mode and refuses TP1 + TP2 above 100', () => {
    const partial = applyChange(valid, { field: 'takeProfitMode', value: TakeProfitMode.Partial });
    expect(validateStrategyForm(partial, false).tpVolumes).toBe(validation.allTpLevelsRequired);
    const tooMuch = { ...partial, tp2Target: '3', tp3Target: '4', tp1Volume: '60', tp2Volume: '50' };
    expect(validateStrategyForm(tooMuch, false).tpVolumes).toBe(validation.enterCorrectValues);
    expect(validateStrategyForm({ ...tooMuch, tp2Volume: '30' }, false)).toEqual({});
  });

  it('requires activation and close with the trailing stop on, % close between 0.01 and 10', () => {
    const on = applyChange(valid, { field: 'trailingStop', value: true });
    const errors = validateStrategyForm(on, false);
    expect(errors.activation).toBe(validation.activationRequired);
    expect(errors.close).toBe(validation.positionCloseRequired);
    const outOfRange = { ...on, activationPercent: '1', closePercent: '11' };
    expect(validateStrategyForm(outOfRange, false).close).toBe(validation.valueBetween);
    expect(validateStrategyForm({ ...outOfRange, closePercent: '0.5' }, false)).toEqual({});
  });

  it('requires an invest amount per group and the exclusive customer', () => {
    const noAmount = { ...valid, groups: [{ group: CustomerGroup.Vip, dollar: '', quantity: '' }] };
    expect(validateStrategyForm(noAmount, false)[`group.${CustomerGroup.Vip}`]).toBe(validation.investRequired);
    const exclusive = {
      ...valid,
      groups: [
        { group: CustomerGroup.Internal, dollar: '', quantity: '2' },
        { group: CustomerGroup.Exclusive, dollar: '50', quantity: '' },
      ],
    };
    expect(validateStrategyForm(exclusive, false).exclusiveCustomerId).toBe(validation.selectOption);
    expect(validateStrategyForm({ ...exclusive, exclusiveCustomerId: 9 }, false)).toEqual({});
  });

  it('checks only groups and stop loss once saved', () => {
    const errors = validateStrategyForm({ ...valid, symbol: '', stopLossAmount: '', stopLossType: AmountType.Dollar }, true);
    expect(errors).toEqual({ stopLossAmount: validation.stopLossRequired });
  });
});
