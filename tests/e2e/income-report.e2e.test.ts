import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AccountType, OrderEntryType, OrderStatus } from '../../contract/enums';
import { executions, orders, strategies } from '../../server/db/schema/index';
import { startE2e, type E2e } from './harness';

/** The Monthly Income Report's axis labels are whole (issue 10: the y axis showed "0.0..."). */
let e2e: E2e;

beforeAll(async () => {
  e2e = await startE2e();
  const customer = await e2e.person(AccountType.Customer, { firstName: 'Rita', lastName: 'Rich' });
  const { db } = e2e.ctx.deps;
  await db.insert(strategies).values({
    id: 'INCOME1', symbol: 'BTCUSDT', entryDirection: 1, leverage: 5, positionMode: 1, takeProfitType: 3, takeProfitMode: 1,
    tp1TargetLevel: '1', tp1CloseVolume: '100', stopLossType: 3, stopLossAmount: '1',
  });
  // A large realized profit in June 2025: a five-figure fee, so the 2025 axis needs thousands.
  const closedAt = new Date('2025-06-10T12:00:00Z');
  const [order] = await db
    .insert(orders)
    .values({ strategyId: 'INCOME1', side: 1, status: OrderStatus.Win, entryType: OrderEntryType.Api, datetimeInserted: closedAt, closedAt })
    .returning();
  await db.insert(executions).values({ orderId: order!.id, customerId: customer.roleId, clientOrderId: 'income-1', deadlineAt: closedAt, realizedPnl: '123456.78' });
});
afterAll(async () => e2e?.close());

/** The y axis tick labels as drawn, and whether each fits inside the chart (none starts left of the svg). */
async function yTicks(page: Page): Promise<{ labels: string[]; outside: string[] }> {
  const ticks = page.locator('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel');
  await ticks.first().waitFor();
  return ticks.evaluateAll((nodes) => {
    const svg = nodes[0]?.closest('svg')?.getBoundingClientRect();
    const labels = nodes.map((node) => node.textContent ?? '');
    const outside = nodes.filter((node) => svg !== undefined && node.getBoundingClientRect().left < svg.left).map((node) => node.textContent ?? '');
    return { labels, outside };
  });
}

const WHOLE_TICK = /^\d+(\.\d)?[KM]?$/;

describe('Monthly Income Report', () => {
  it('shows whole y axis labels for a year without income and for a year with a five-figure income', async () => {
    const { page } = await e2e.signedInPage(AccountType.Admin);
    await page.getByRole('heading', { name: 'Monthly Income Report' }).waitFor();

    const empty = await yTicks(page);
    expect(empty.labels).toContain('0');
    expect(empty.labels).toContain('1');
    for (const label of empty.labels) expect(label).toMatch(WHOLE_TICK);
    expect(empty.outside).toEqual([]);

    await page.getByRole('combobox', { name: 'Year' }).click();
    await page.getByRole('option', { name: '2025' }).click();
    await page.locator('.MuiChartsAxis-directionY .MuiChartsAxis-tickLabel', { hasText: 'K' }).first().waitFor();
    const rich = await yTicks(page);
    for (const label of rich.labels) expect(label).toMatch(WHOLE_TICK);
    expect(rich.labels.some((label) => label.endsWith('K'))).toBe(true);
    expect(rich.outside).toEqual([]);
    await e2e.screenshot(page, 'issue10-income-report-axis');
  });
});
