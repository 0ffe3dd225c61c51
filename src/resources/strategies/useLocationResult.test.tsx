import { render, screen, waitFor } from '@testing-library/react';
import { I18nContextProvider } from 'ra-core';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { ResultPopupProvider } from '../../components/ResultPopupProvider';
import { i18nProvider } from '../../i18n';
import { useLocationResult } from './useLocationResult';

function Page() {
  useLocationResult();
  const location = useLocation();
  return (
    <>
      <output aria-label="history state">{JSON.stringify(location.state)}</output>
      <output aria-label="url">{`${location.pathname}${location.search}`}</output>
    </>
  );
}

describe('useLocationResult', () => {
  it('shows the handed result once and takes it out of the history entry, so a reload does not show it again', async () => {
    const result = { type: 'success' as const, message: 'Strategy successfully saved' };
    render(
      <MemoryRouter initialEntries={[{ pathname: '/strategy/TYPED01', search: '?tab=1', state: { result } }]}>
        <I18nContextProvider value={i18nProvider}>
          <ResultPopupProvider>
            <Page />
          </ResultPopupProvider>
        </I18nContextProvider>
      </MemoryRouter>,
    );
    expect(await screen.findByText('Strategy successfully saved')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByLabelText('history state')).toHaveTextContent('null'));
    expect(screen.getByLabelText('url')).toHaveTextContent('/strategy/TYPED01?tab=1');
    expect(screen.getByText('Strategy successfully saved')).toBeInTheDocument();
  });
});
