import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router-dom';
import type { Result } from '../../components/ResultPopup';
import { useResultPopup } from '../../components/ResultPopupProvider';

/** Shows the result popup handed over by the page that navigated here (e.g. 'Strategy successfully saved'). */
export function useLocationResult(): void {
  const location = useLocation();
  const showResult = useResultPopup();
  const handed = (location.state as { result?: Result } | null)?.result;
  const shown = useRef<Result | undefined>(undefined);
  useEffect(() => {
    if (!handed || shown.current === handed) return;
    shown.current = handed;
    showResult(handed);
  }, [handed, showResult]);
}
