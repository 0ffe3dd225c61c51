import { useEffect, useState } from 'react';
import { useDataProvider } from 'react-admin';
import { strategyRoutes, type Strategy } from '../../../contract/api/strategy';
import type { AppDataProvider } from '../../dataProvider';

export type StrategyLoad = { status: 'none' } | { status: 'loading' } | { status: 'missing' } | { status: 'ready'; strategy: Strategy };

/** Loads the strategy of an edit URL; 'none' on the create page. */
export function useStrategyRecord(id: string | undefined) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const [load, setLoad] = useState<StrategyLoad>(id ? { status: 'loading' } : { status: 'none' });
  useEffect(() => {
    if (!id) {
      setLoad({ status: 'none' });
      return;
    }
    let live = true;
    setLoad({ status: 'loading' });
    dataProvider.call(strategyRoutes.get, { params: { id } }).then(
      (strategy) => live && setLoad({ status: 'ready', strategy }),
      () => live && setLoad({ status: 'missing' }),
    );
    return () => {
      live = false;
    };
  }, [dataProvider, id]);
  return [load, setLoad] as const;
}
