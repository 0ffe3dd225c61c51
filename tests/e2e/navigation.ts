import type { Page } from 'playwright-core';

/**
 * Goes to `path` inside the running app the way a link does: the app's router changes the page, the
 * document is not loaded again (a person follows the menu far more often than they type an address).
 * Resolves once the new page's heading (h1) is shown: one that was not on the page before, or whose
 * text changed (on the page already shown, its heading). A page with no app loaded yet is opened with an
 * ordinary navigation.
 */
export async function followLink(page: Page, path: string): Promise<void> {
  const headings = page.locator('h1');
  const here = new URL(page.url());
  // A link to the page already shown changes nothing on it: its heading is the one to wait for.
  if (`${here.pathname}${here.search}` === path) {
    await headings.first().waitFor({ timeout: 20_000 });
    return;
  }
  if ((await headings.count()) === 0) {
    await page.goto(path);
    await headings.first().waitFor({ timeout: 20_000 });
    return;
  }
  await headings.evaluateAll((nodes) => nodes.forEach((node) => node.setAttribute('data-before-link', node.textContent ?? '')));
  await page.evaluate((to) => {
    history.pushState(null, '', to);
    dispatchEvent(new PopStateEvent('popstate', { state: null }));
  }, path);
  await page.waitForFunction(
    () => [...document.querySelectorAll('h1')].some((node) => node.getAttribute('data-before-link') !== node.textContent),
    undefined,
    { timeout: 20_000 },
  );
}
