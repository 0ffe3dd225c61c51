import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { I18nContextProvider } from 'ra-core';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { i18nProvider } from '../i18n';
import { withChunkTimeout } from './chunkTimeout';
import { UnexpectedErrorPage } from './UnexpectedErrorPage';

afterEach(() => vi.useRealTimers());

describe('routing failures', () => {
  it("show the 'Unexpected Application Error' page", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const router = createMemoryRouter(
      [
        {
          path: '/broken',
          errorElement: <UnexpectedErrorPage />,
          lazy: async () => {
            throw new Error('chunk missing');
          },
        },
      ],
      { initialEntries: ['/broken'] },
    );
    render(
      <I18nContextProvider value={i18nProvider}>
        <RouterProvider router={router} />
      </I18nContextProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error' })).toBeInTheDocument();
    expect(screen.getByText('chunk missing')).toBeInTheDocument();
  });

  it('a chunk that does not load within 120 seconds fails', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => undefined);
    const loading = withChunkTimeout(never);
    const outcome = loading.catch((error: Error) => error.message);
    await vi.advanceTimersByTimeAsync(119_999);
    let settled = false;
    void loading.catch(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('A part of the application did not load within 120 seconds. Check your connection and reload the page.');
  });
});
