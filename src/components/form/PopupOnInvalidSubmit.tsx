import { useEffect, useRef } from 'react';
import { useFormState } from 'react-hook-form';
import { useResultPopup } from '../ResultPopupProvider';

/**
 * Inside a react-admin form: a save refused by the form's schema opens the error popup with the
 * spec's text (e.g. 'Please fill in all required fields.'); the fields show their own messages.
 */
export function PopupOnInvalidSubmit({ message }: { message: string }) {
  const { submitCount, errors } = useFormState();
  const showResult = useResultPopup();
  const seen = useRef(0);
  const invalid = Object.keys(errors).length > 0;
  useEffect(() => {
    if (submitCount === seen.current) return;
    seen.current = submitCount;
    if (invalid) showResult({ type: 'error', message });
  }, [submitCount, invalid, message, showResult]);
  return null;
}
