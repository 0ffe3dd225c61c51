import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { ResultPopup, type Result } from './ResultPopup';

type ShowResult = (result: Result, options?: { onClose?: () => void }) => void;

const ResultPopupContext = createContext<ShowResult | undefined>(undefined);

/**
 * Hosts the back office's one result popup (success or error, 'Closed' button, spec 2). Any
 * screen shows it with `useResultPopup()`; `onClose` runs when the person closes it (for example
 * to return to the list after a delete).
 */
export function ResultPopupProvider({ children }: { children: ReactNode }) {
  const [result, setResult] = useState<Result | undefined>(undefined);
  const onClose = useRef<(() => void) | undefined>(undefined);
  const show = useCallback<ShowResult>((next, options) => {
    onClose.current = options?.onClose;
    setResult(next);
  }, []);
  const close = () => {
    const after = onClose.current;
    onClose.current = undefined;
    setResult(undefined);
    after?.();
  };
  const value = useMemo(() => show, [show]);
  return (
    <ResultPopupContext.Provider value={value}>
      {children}
      <ResultPopup result={result} onClose={close} />
    </ResultPopupContext.Provider>
  );
}

/** Shows the result popup: `showResult({ type: 'success', message }, { onClose })`. */
export function useResultPopup(): ShowResult {
  const show = useContext(ResultPopupContext);
  if (!show) throw new Error('useResultPopup must be used inside <ResultPopupProvider> (the back-office layout)');
  return show;
}
