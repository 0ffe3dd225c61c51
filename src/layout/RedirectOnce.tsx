import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';

/**
 * Navigates to `to` once. A <Navigate> would navigate again on every render, and the public pages
 * load lazily: while their chunk loads, the old page re-renders and would restart the navigation.
 */
export function RedirectOnce({ to }: { to: string }) {
  const navigate = useNavigate();
  const done = useRef(false);
  useEffect(() => {
    if (done.current) return;
    done.current = true;
    navigate(to, { replace: true });
  }, [navigate, to]);
  return null;
}
