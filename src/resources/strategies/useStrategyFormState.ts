import { useCallback, useState } from 'react';
import type { StrategyFormErrors } from './StrategyFormContext';
import { applyChange, type StrategyChange } from './strategyFormRules';
import { validateStrategyForm } from './strategyFormValidation';
import { emptyStrategyForm, type StrategyFormValues } from './strategyFormValues';

/**
 * Values and errors of the settings form. Errors appear on the first save attempt and then follow
 * every edit, so a fixed field loses its message at once.
 */
export function useStrategyFormState(initial: StrategyFormValues = emptyStrategyForm) {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<StrategyFormErrors>({});
  const [checkedAs, setCheckedAs] = useState<'create' | 'update' | undefined>(undefined);
  const change = useCallback(
    (next: StrategyChange) => {
      const updated = applyChange(values, next);
      setValues(updated);
      if (checkedAs) setErrors(validateStrategyForm(updated, checkedAs === 'update'));
    },
    [values, checkedAs],
  );
  /** Runs the contract's rules; answers whether the form may be saved. */
  const validate = useCallback(
    (saved: boolean) => {
      const found = validateStrategyForm(values, saved);
      setErrors(found);
      setCheckedAs(saved ? 'update' : 'create');
      return Object.keys(found).length === 0;
    },
    [values],
  );
  const reset = useCallback((next: StrategyFormValues) => {
    setValues(next);
    setErrors({});
    setCheckedAs(undefined);
  }, []);
  return { values, errors, change, validate, reset };
}
