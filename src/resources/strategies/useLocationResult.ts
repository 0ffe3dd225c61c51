import { useEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import type { Result } from '../../components/ResultPopup';
import { useResultPopup } from '../../components/ResultPopupProvider';

/**
 * Shows the result popup handed over by the page that navigated here (e.g. 'Strategy successfully
 * saved'), once: the history entry then forgets it, so a reload or Back does not show it again.
 */
export function useLocationResult(): void {
  const location = useLocation();
  const navigate = useNavigate();
  const showResult = useResultPopup();
  const handed = (location.state as { result?: Result } | null)?.result;
  const shown = useRef<Result | undefined>(undefined);
  useEffect(() => {
    if (!handed || shown.current === handed) return;
    shown.current = handed;
    showResult(handed);
    void navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [handed, showResult, navigate, location.pathname, location.search, location.hash]);
}
