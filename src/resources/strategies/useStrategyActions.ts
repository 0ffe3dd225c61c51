import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';
import { useSignedInAccount } from '../../layout/AccountContext';
import { fromStrategy, toStrategyInput, toStrategyUpdateInput } from './strategyFormMapping';
import { emptyStrategyForm } from './strategyFormValues';
import { strategyEditPath, strategyListPath } from './strategyPaths';
import type { useStrategyFormState } from './useStrategyFormState';

/** Save, update, clear and delete of the settings page, each ending in the spec's popup. */
export function useStrategyActions(state: ReturnType<typeof useStrategyFormState>, strategy: Strategy | undefined, showResult: (result: Result) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const navigate = useNavigate();
  const { accountType } = useSignedInAccount();
  const [busy, setBusy] = useState(false);
  const note = (key: string) => translate(`resources.strategies.notifications.${key}`);

  const run = async (work: () => Promise<void>, fallback: string) => {
    setBusy(true);
    try {
      await work();
    } catch (error) {
      showResult({ type: 'error', message: errorMessage(error, fallback) });
    } finally {
      setBusy(false);
    }
  };

  const save = () => {
    const saved = strategy !== undefined;
    if (!state.validate(saved)) {
      showResult({ type: 'error', message: note('settingFailedDetail') });
      return;
    }
    void run(async () => {
      if (strategy) {
        const updated = await dataProvider.call(strategyRoutes.update, { params: { id: strategy.id }, body: toStrategyUpdateInput(state.values) });
        state.reset(fromStrategy(updated));
        showResult({ type: 'success', message: note('updated') });
        return;
      }
      const created = await dataProvider.call(strategyRoutes.create, { body: toStrategyInput(state.values) });
      navigate(strategyEditPath(created.id), { state: { result: { type: 'success', message: note('saved') } } });
    }, note('settingFailed'));
  };

  const clear = () => {
    state.reset(emptyStrategyForm);
    showResult({ type: 'success', message: note('cleared') });
  };

  const remove = () =>
    run(async () => {
      if (!strategy) return;
      await dataProvider.call(strategyRoutes.remove, { params: { id: strategy.id } });
      navigate(strategyListPath(accountType), { state: { result: { type: 'success', message: note('deleted') } } });
    }, note('deleteError'));

  return { busy, save, clear, remove };
}
