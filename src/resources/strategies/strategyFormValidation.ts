import { strategyCreateBody, strategyUpdateBody } from '../../../contract/api/strategy';
import { validation } from '../../../contract/messages';
import type { StrategyFormErrors } from './StrategyFormContext';
import { toStrategyInput, toStrategyUpdateInput } from './strategyFormMapping';
import { tpVolumesTooHigh } from './strategyFormRules';
import type { StrategyFormValues } from './strategyFormValues';

type Path = readonly PropertyKey[];

/** Where the form shows an issue of the contract schema (by its path in the strategy body). */
function fieldOf(path: Path, values: StrategyFormValues): string {
  const [head, second] = path;
  switch (head) {
    case 'tp1':
      return second === 'targetLevel' ? 'tp1Target' : 'tpVolumes';
    case 'tp2':
    case 'tp3':
    case 'takeProfitMode':
      return 'tpVolumes';
    case 'stopLoss':
      return 'stopLossAmount';
    case 'positionActivation':
      return 'activation';
    case 'positionClose':
      return 'close';
    case 'groups': {
      const row = typeof second === 'number' ? values.groups[second] : undefined;
      return row ? `group.${row.group}` : 'groups';
    }
    default:
      return String(head ?? 'form');
  }
}

function collect(issues: readonly { message: string; path: Path }[], values: StrategyFormValues): StrategyFormErrors {
  const errors: StrategyFormErrors = {};
  for (const issue of issues) {
    const field = fieldOf(issue.path, values);
    errors[field] ??= issue.message;
  }
  return errors;
}

/**
 * Checks the form with the contract's own schema (the one the server applies): the create body
 * before the first save, the update body (groups, stop loss, exclusive customer) afterwards.
 * Answers the error text per form field; empty when the form can be saved.
 */
export function validateStrategyForm(values: StrategyFormValues, saved: boolean): StrategyFormErrors {
  const result = saved ? strategyUpdateBody.safeParse(toStrategyUpdateInput(values)) : strategyCreateBody.safeParse(toStrategyInput(values));
  const errors = result.success ? {} : collect(result.error.issues, values);
  if (!saved && tpVolumesTooHigh(values)) errors.tpVolumes = validation.enterCorrectValues;
  return errors;
}
