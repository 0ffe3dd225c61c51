import type { ReactElement } from 'react';
import { render, type RenderResult } from '@testing-library/react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { ThemeProvider } from '@mui/material/styles';
import { I18nContextProvider } from 'ra-core';
import { i18nProvider } from '../i18n';
import { theme } from '../layout/theme';

let currentLocation = '';
function LocationProbe() {
  const location = useLocation();
  currentLocation = `${location.pathname}${location.search}`;
  return null;
}

/** A public page at `url`, matched on `path`; `location()` reads where it navigated. */
export function renderPublic(element: ReactElement, { path = '/', url }: { path?: string; url?: string } = {}): RenderResult & { location: () => string } {
  const result = render(
    <ThemeProvider theme={theme}>
      <I18nContextProvider value={i18nProvider}>
        <MemoryRouter initialEntries={[url ?? path]}>
          <Routes>
            <Route path={path} element={element} />
            <Route path="*" element={null} />
          </Routes>
          <LocationProbe />
        </MemoryRouter>
      </I18nContextProvider>
    </ThemeProvider>,
  );
  return Object.assign(result, { location: () => currentLocation });
}
