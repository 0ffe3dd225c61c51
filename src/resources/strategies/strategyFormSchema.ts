import { z } from 'zod';
import { strategyCreateBody, strategyUpdateBody } from '../../../contract/api/strategy';
import { validation } from '../../../contract/messages';
import { toStrategyInput, toStrategyUpdateInput } from './strategyFormMapping';
import { tpVolumesTooHigh } from './strategyFormRules';
import type { StrategyFormValues } from './strategyFormValues';

type Path = readonly PropertyKey[];

/**
 * Where the form shows an issue of the contract schema (by its path in the strategy body): a form
 * field, or one of the group messages 'tpVolumes', 'activation', 'close', 'groups', 'group.<n>'.
 */
export function formPathOf(path: Path, values: StrategyFormValues): string[] {
  const [head, second] = path;
  switch (head) {
    case 'tp1':
      return [second === 'targetLevel' ? 'tp1Target' : 'tpVolumes'];
    case 'tp2':
    case 'tp3':
    case 'takeProfitMode':
      return ['tpVolumes'];
    case 'stopLoss':
      return ['stopLossAmount'];
    case 'positionActivation':
      return ['activation'];
    case 'positionClose':
      return ['close'];
    case 'groups': {
      const row = typeof second === 'number' ? values.groups[second] : undefined;
      return row ? ['group', String(row.group)] : ['groups'];
    }
    default:
      return [String(head ?? 'form')];
  }
}

/**
 * The settings form checked by the contract's own schema (the one the server applies): the create
 * body before the first save, the update body (groups, stop loss, exclusive customer) afterwards.
 * Used with react-hook-form's zodResolver; issues land on the form's fields (first one wins).
 */
export function strategyFormSchema(saved: boolean) {
  return z.custom<StrategyFormValues>().superRefine((values, ctx) => {
    const result = saved ? strategyUpdateBody.safeParse(toStrategyUpdateInput(values)) : strategyCreateBody.safeParse(toStrategyInput(values));
    const seen = new Set<string>();
    const add = (path: string[], message: string) => {
      const key = path.join('.');
      if (seen.has(key)) return;
      seen.add(key);
      ctx.addIssue({ code: 'custom', path, message });
    };
    if (!saved && tpVolumesTooHigh(values)) add(['tpVolumes'], validation.enterCorrectValues);
    for (const issue of result.success ? [] : result.error.issues) add(formPathOf(issue.path, values), issue.message);
  });
}
