import { useState } from 'react';
import { useLocation } from 'react-router-dom';
import type { Result } from '../../components/ResultPopup';

/** A result popup handed over by the page that navigated here (e.g. 'Strategy successfully saved'). */
export function useLocationResult() {
  const location = useLocation();
  const handed = (location.state as { result?: Result } | null)?.result;
  const [result, setResult] = useState<Result | undefined>(handed);
  return [result, setResult] as const;
}
