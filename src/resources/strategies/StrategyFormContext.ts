import { createContext, useContext } from 'react';
import type { StrategyChange } from './strategyFormRules';
import type { StrategyFormValues } from './strategyFormValues';

/** Field name of the form (or `group.<n>` for a group's invest amount) to its error text. */
export type StrategyFormErrors = Partial<Record<string, string>>;

export interface StrategyFormState {
  values: StrategyFormValues;
  errors: StrategyFormErrors;
  change: (change: StrategyChange) => void;
  /** Employees see the whole form read-only. */
  readOnly: boolean;
  /** Once saved, only groups and stop loss can change. */
  locked: boolean;
}

export const StrategyFormContext = createContext<StrategyFormState | null>(null);

export function useStrategyForm(): StrategyFormState {
  const state = useContext(StrategyFormContext);
  if (!state) throw new Error('useStrategyForm must be used inside <StrategyFormContext>');
  return state;
}
