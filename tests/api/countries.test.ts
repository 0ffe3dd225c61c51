import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestContext();
});
afterAll(async () => ctx?.close());

const search = (filter: unknown[]) => ctx.api('POST', '/api/country/search', { body: { filter } });

describe('POST /api/country/search by id', () => {
  it('answers the one country a list filter has chosen (issue 28 item 18: the filter loads on demand)', async () => {
    const singapore = (await search([{ name: 'name', value: 'Singapore' }])).body.data.data[0];
    const byId = await search([{ name: 'id', value: String(singapore.id) }]);
    expect(byId.body.data.data).toEqual([singapore]);
    expect(byId.body.data.paging.totalCount).toBe(1);
    const both = await search([{ name: 'id', value: singapore.id }, { name: 'name', value: 'france' }]);
    expect(both.body.data.data).toEqual([]);
  });

  it('refuses an id that is not one, with a message', async () => {
    const bad = await search([{ name: 'id', value: 'SG' }]);
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toBe('filter id must be an id, a whole number from 1 to 2147483647');
  });
});
