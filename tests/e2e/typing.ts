import type { Locator, Page } from 'playwright-core';

/**
 * What a person does in a form, with the mouse and the keyboard only: no value is set on an input
 * directly (`fill`), so the app sees every keystroke as it would from a person.
 */

/** Clicks the field, clears what it holds (select all, Backspace) and types `text` key by key. */
export async function typeInto(field: Locator, text: string): Promise<void> {
  await field.click();
  const page = field.page();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(text);
}

/** Types into the field labelled `label` (exact label). */
export async function typeLabelled(scope: Page | Locator, label: string, text: string): Promise<void> {
  await typeInto(scope.getByLabel(label, { exact: true }), text);
}

/** Opens the dropdown labelled `label` (its name goes on with the chosen value) and clicks `option`. */
export async function choose(page: Page, label: string, option: string): Promise<void> {
  await page.getByRole('combobox', { name: new RegExp(`^${escapeRegExp(label)}( |$)`) }).click();
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Types part of a country's name into the country picker and picks it from the answers. */
export async function chooseCountry(page: Page, label: string, search: string, option: RegExp): Promise<void> {
  await typeInto(page.getByRole('combobox', { name: label, exact: true }), search);
  await page.getByRole('option', { name: option }).click();
}

/** Waits for the result popup holding `text` and closes it with its 'Closed' button. */
export async function closePopup(page: Page, text: string): Promise<void> {
  const dialog = page.getByRole('dialog').filter({ hasText: text });
  await dialog.waitFor();
  await dialog.getByRole('button', { name: 'Closed' }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** The helper texts shown under the form's fields, in page order. */
export async function fieldMessages(page: Page): Promise<string[]> {
  const texts = await page.locator('form .Mui-error.MuiFormHelperText-root').allTextContents();
  return texts.map((text) => text.trim()).filter((text) => text !== '');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
