import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { server } from '../../contract/messages';
import { AccountType } from '../../contract/enums';
import { personWithToken } from '../helpers/fixtures';
import { createTestContext, type TestContext } from '../helpers/test-app';

let ctx: TestContext;
let admin: string;
beforeAll(async () => {
  ctx = await createTestContext();
  admin = (await personWithToken(ctx, AccountType.Admin)).token;
});
afterAll(async () => ctx?.close());

const envelope = (message: string) => ({ successful: false, data: null, error: { message } });

/** Writes raw bytes to the server (no client library cleans them up first) and reads its whole answer. */
function rawExchange(port: number, request: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body });
    });
  });
}

describe('ids are PostgreSQL integers: 400 for one that cannot exist, 404 for an unknown one', () => {
  it('refuses accountId 2147483648 on the public code check with a 400, not a 500', async () => {
    const answer = await ctx.api('POST', '/api/security/email/verify', { body: { code: '123456', accountId: 2147483648 } });
    expect([answer.status, answer.body]).toEqual([400, envelope('body.accountId: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)')]);
    const largest = await ctx.api('POST', '/api/security/email/verify', { body: { code: '123456', accountId: 2147483647 } });
    expect([largest.status, largest.body]).toEqual([400, envelope('The verification code is invalid or has expired')]);
  });

  it('answers path ids beyond int4, negative or fractional with 400 and unknown ones with 404', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/customer/2147483648', 400, 'path.id: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)'],
      ['/api/customer/99999999999999999999', 400, 'path.id: must be a whole number; path.id: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)'],
      ['/api/customer/-1', 400, 'path.id: must be a positive id'],
      ['/api/customer/1.5', 400, 'path.id: must be a whole number'],
      ['/api/customer/1e3', 400, 'path.id: must be a number'],
      ['/api/customer/true', 400, 'path.id: must be a number'],
      ['/api/customer/2147483647', 404, 'Customer not found'],
      ['/api/agent/2147483648', 400, 'path.agentId: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)'],
      ['/api/employee/2147483648', 400, 'path.id: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)'],
    ];
    for (const [url, status, message] of cases) {
      const answer = await ctx.api('GET', url, { token: admin });
      expect([url, answer.status, answer.body]).toEqual([url, status, envelope(message)]);
    }
  });

  it('refuses ids beyond int4 inside bodies and lists (customerId, agentIds, countryIds)', async () => {
    const sync = await ctx.api('POST', '/api/health/sync', { token: admin, body: { customerId: 2147483648 } });
    expect([sync.status, sync.body.error?.message]).toEqual([400, 'body.customerId: must be at most 2147483647 (ids are whole numbers from 1 to 2147483647)']);
    const filter = await ctx.api('POST', '/api/customer/filter', { token: admin, body: { filter: { agentIds: [1, 2147483648], countryIds: [-4] } } });
    expect(filter.status).toBe(400);
    expect(filter.body.error?.message).toContain('body.filter.countryIds.0: must be a positive id');
    expect(filter.body.error?.message).toContain('body.filter.agentIds.1: must be at most 2147483647');
    const agents = await ctx.api('POST', '/api/agent/filter', { token: admin, body: { filter: { countryIds: [4294967296] } } });
    expect(agents.status).toBe(400);
  });

  it('refuses ids beyond int4 in search filters (order id, transaction id, agent id)', async () => {
    for (const [url, name] of [
      ['/api/order/search', 'id'],
      ['/api/error/search', 'transactionId'],
      ['/api/exit/search', 'transactionId'],
      ['/api/registrationid/search', 'agentId'],
    ] as const) {
      for (const value of [2147483648, '99999999999']) {
        const answer = await ctx.api('POST', url, { token: admin, body: { filter: [{ name, value }] } });
        expect([url, value, answer.status]).toEqual([url, value, 400]);
      }
      const largest = await ctx.api('POST', url, { token: admin, body: { filter: [{ name, value: 2147483647 }] } });
      expect([url, largest.status, largest.body.data.paging.totalCount]).toEqual([url, 200, 0]);
    }
  });

  it('does not coerce: true is no customer id, "5" is no page index', async () => {
    const sync = await ctx.api('POST', '/api/health/sync', { token: admin, body: { customerId: true } });
    expect([sync.status, sync.body.error?.message]).toEqual([400, 'body.customerId: must be a number']);
    const page = await ctx.api('POST', '/api/country/search', { body: { pageIndex: '1', pageSize: [10] } });
    expect([page.status, page.body.error?.message]).toEqual([400, 'body.pageIndex: pageIndex must be a number; body.pageSize: pageSize must be a number']);
    const query = await ctx.api('GET', '/api/agent/all?pageIndex=true', { token: admin });
    expect([query.status, query.body.error?.message]).toEqual([400, 'query.pageIndex: pageIndex must be a number']);
  });
});

describe('text PostgreSQL cannot store is refused in the contract', () => {
  it('answers a NUL character in a public search with 400 and a message', async () => {
    const answer = await ctx.api('POST', '/api/country/search', { body: { filter: [{ name: 'name', value: 'Sing\u0000apore' }] } });
    expect([answer.status, answer.body]).toEqual([400, envelope('body.filter.0.value: must be text without NUL characters (\\u0000) or unpaired surrogates (\\ud800-\\udfff)')]);
  });

  it('answers an unpaired surrogate the same way, and keeps paired ones (emoji)', async () => {
    const lone = await ctx.api('POST', '/api/security/registrationid/verify', { payload: '{"registrationId":"AB\\ud800CD"}', headers: { 'content-type': 'application/json' } });
    expect([lone.status, lone.body.error?.message]).toEqual([400, 'body.registrationId: must be text without NUL characters (\\u0000) or unpaired surrogates (\\ud800-\\udfff)']);
    const emoji = await ctx.api('POST', '/api/security/registrationid/verify', { body: { registrationId: 'AB😀CD' } });
    expect([emoji.status, emoji.body.error?.message]).toEqual([404, 'This Registration ID is not valid']);
  });

  it('refuses NUL in the staff searches too', async () => {
    for (const [url, body] of [
      ['/api/customer/search/fullname', { text: 'a\u0000' }],
      ['/api/agent/filter', { filter: { name: '\u0000' } }],
      ['/api/order/search', { filter: [{ name: 'strategy.symbol', value: 'BTC\u0000' }] }],
      ['/api/strategy/search', { filter: [{ name: 'id', value: '\u0000' }] }],
    ] as const) {
      const answer = await ctx.api('POST', url, { token: admin, body });
      expect([url, answer.status]).toEqual([url, 400]);
      expect(answer.body.error?.message).toMatch(/without NUL characters/);
    }
  });
});

describe('every answer is the envelope', () => {
  it('answers a path segment over the length limit with 414 in the envelope', async () => {
    const answer = await ctx.api('GET', `/api/customer/${'9'.repeat(600)}`, { token: admin });
    expect([answer.status, answer.body]).toEqual([414, envelope('A part of the path is longer than any valid value (at most 500 characters)')]);
    expect(answer.headers['cache-control']).toBe('no-store');
  });

  it('answers a path that is not valid URL encoding with 400 in the envelope', async () => {
    const answer = await ctx.api('GET', '/api/customer/%zz', { token: admin });
    expect([answer.status, answer.body]).toEqual([400, envelope('The path is not valid URL encoding')]);
  });

  it("cites the webhook's real body limit in its 413", async () => {
    const answer = await ctx.api('POST', '/api/webhook/some-token', { payload: 'x'.repeat(70_000), headers: { 'content-type': 'text/plain' } });
    expect([answer.status, answer.body]).toEqual([413, envelope('The request body is larger than the 64 KiB (65536 bytes) this operation accepts')]);
    const json = await ctx.api('POST', '/api/country/search', { payload: JSON.stringify({ pad: 'x'.repeat(1_100_000) }), headers: { 'content-type': 'application/json' } });
    expect([json.status, json.body]).toEqual([413, envelope('The request body is larger than the 1024 KiB (1048576 bytes) this operation accepts')]);
  });

  it('answers an unknown content type with 415 in the envelope, naming it', async () => {
    const answer = await ctx.api('POST', '/api/country/search', { payload: 'a=b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect([answer.status, answer.body]).toEqual([415, envelope("Content type 'application/x-www-form-urlencoded' is not supported; send application/json")]);
  });

  it('answers TRACE and a wrong method with 405 in the envelope', async () => {
    const trace = await ctx.app.inject({ method: 'TRACE' as 'GET', url: '/api/account' });
    expect([trace.statusCode, trace.json()]).toEqual([405, envelope('/api/account does not answer TRACE; it answers GET, POST')]);
    expect(trace.headers.allow).toBe('GET, POST');
    const traceAnywhere = await ctx.app.inject({ method: 'TRACE' as 'GET', url: '/api/nothing' });
    expect([traceAnywhere.statusCode, traceAnywhere.json()]).toEqual([405, envelope('The method TRACE is not allowed')]);
    const put = await ctx.api('PUT', '/api/customer/5', { token: admin });
    expect([put.status, put.body]).toEqual([405, envelope('/api/customer/5 does not answer PUT; it answers GET, DELETE')]);
    const unknown = await ctx.api('GET', '/api/nothing-here');
    expect([unknown.status, unknown.body]).toEqual([404, envelope('Route GET /api/nothing-here does not exist')]);
  });

  it('answers a header with a control character, or headers too large, in the envelope, not a bare 400', async () => {
    await ctx.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = ctx.app.server.address() as AddressInfo;
    const cases: Array<[string, number, string]> = [
      [`GET /api/account HTTP/1.1\r\nHost: x\r\nX-Note: a\u0001b\r\n\r\n`, 400, server.unreadableRequest],
      [`GET /api/account HTTP/1.1\r\nHost: x\r\nX-Note: a\u007fb\r\n\r\n`, 400, server.unreadableRequest],
      [`GET /api/account HTTP/1.1\r\nHost: x\r\nX-Pad: ${'p'.repeat(20_000)}\r\n\r\n`, 431, server.headersTooLarge],
    ];
    for (const [request, status, message] of cases) {
      const answer = await rawExchange(port, request);
      expect([answer.status, answer.headers['content-type'], answer.headers['cache-control'], JSON.parse(answer.body)]).toEqual([
        status,
        'application/json; charset=utf-8',
        'no-store',
        envelope(message),
      ]);
    }
  });

  it('marks every API answer Cache-Control: no-store, errors included', async () => {
    for (const answer of [
      await ctx.api('GET', '/api/account', { token: admin }),
      await ctx.api('GET', '/api/account'),
      await ctx.api('POST', '/api/country/search', { body: {} }),
    ]) {
      expect(answer.headers['cache-control']).toBe('no-store');
    }
  });
});
