import { useTranslate } from 'ra-core';
import type { ReactNode } from 'react';
import { ModalNotice } from './ModalNotice';

export interface Result {
  type: 'success' | 'error';
  message: ReactNode;
}

/** The shared success or error popup with its 'Closed' button (spec 2). `result` undefined = closed. */
export function ResultPopup({ result, onClose }: { result: Result | undefined; onClose: () => void }) {
  const translate = useTranslate();
  return (
    <ModalNotice
      open={Boolean(result)}
      onClose={onClose}
      type={result?.type ?? 'success'}
      title={translate(result?.type === 'error' ? 'app.components.error' : 'app.components.success')}
      message={result?.message ?? ''}
      closeLabel={translate('app.components.closed')}
    />
  );
}
