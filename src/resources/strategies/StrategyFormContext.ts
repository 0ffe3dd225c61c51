import { createContext, useCallback, useContext } from 'react';
import { useFormContext, useFormState, useWatch, type FieldErrors } from 'react-hook-form';
import { applyChange, type StrategyChange } from './strategyFormRules';
import type { StrategyFormValues } from './strategyFormValues';

/** Field name of the form (or `group.<n>`, `tpVolumes`, `activation`, `close`) to its error text. */
export type StrategyFormErrors = Partial<Record<string, string>>;

export interface StrategyFormFlags {
  /** Employees see the whole form read-only. */
  readOnly: boolean;
  /** Once saved, only groups and stop loss can change. */
  locked: boolean;
}

export const StrategyFormContext = createContext<StrategyFormFlags>({ readOnly: false, locked: false });

function flatten(errors: FieldErrors, prefix = ''): StrategyFormErrors {
  const flat: StrategyFormErrors = {};
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value.message === 'string') flat[name] = value.message;
    else Object.assign(flat, flatten(value as FieldErrors, name));
  }
  return flat;
}

/**
 * The settings form on react-admin's form (react-hook-form): its values, its errors by field, and
 * `change`, which applies the dependencies of spec 4 (strategyFormRules) and, once a save was
 * tried, checks the whole form again so every message follows the edit at once.
 */
export function useStrategyForm() {
  const flags = useContext(StrategyFormContext);
  const { getValues, setValue, trigger } = useFormContext<StrategyFormValues>();
  const values = useWatch() as StrategyFormValues;
  const { errors, isSubmitted } = useFormState();
  const change = useCallback(
    (next: StrategyChange) => {
      const current = getValues();
      const updated = applyChange(current, next);
      for (const key of Object.keys(updated) as (keyof StrategyFormValues)[]) {
        if (updated[key] !== current[key]) setValue(key, updated[key], { shouldDirty: true });
      }
      if (isSubmitted) void trigger();
    },
    [getValues, setValue, trigger, isSubmitted],
  );
  return { values, errors: flatten(errors), change, ...flags };
}
