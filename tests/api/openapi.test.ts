import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublic } from '../../contract/access';
import { OAUTH_CALLBACK_PATH } from '../../contract/api/exchange';
import { MAX_ID, STORABLE_TEXT } from '../../contract/common';
import { sandboxMountsFor } from '../../server/sandbox/index';
import { errorStatusesOf } from '../../server/http/openapi';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { contractRoutes, openApiPathOf } from './contract-routes';
import { jsonSchemaOf, type JsonSchema } from './fuzz-arbitraries';

interface Operation {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ in: string; name: string; schema: Record<string, unknown> }>;
  requestBody?: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: Record<string, unknown> }> }>;
}
type Document = { paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown> } };

let ctx: TestContext;
let doc: Document;
beforeAll(async () => {
  // Mounted like `npm start` in sandbox mode: the sandbox's routes must still stay out of the document.
  ctx = await createTestContext({ app: { extraPlugins: sandboxMountsFor({ exchangeMode: 'sandbox', dataDir: '.' }, { SANDBOX_CONTROL_TOKEN: 'docs-test' }, () => undefined) } });
  doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs' })).json() as Document;
});
afterAll(async () => ctx?.close());

const operationOf = (method: string, path: string) => doc.paths[openApiPathOf(path)]?.[method.toLowerCase()];

const errorEnvelope = {
  type: 'object',
  properties: {
    successful: { type: 'boolean', enum: [false] },
    data: { type: 'string', nullable: true, enum: [null] },
    error: { type: 'object', properties: { message: { type: 'string' } }, required: ['message'], additionalProperties: false },
  },
  required: ['successful', 'data', 'error'],
  additionalProperties: false,
};

describe('/api/docs', () => {
  it('documents exactly the contract’s operations, and nothing of the sandbox, the static files or the pages', () => {
    const documented = Object.entries(doc.paths).flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`));
    const expected = [...contractRoutes.map((route) => `${route.method} ${openApiPathOf(route.path)}`), 'GET /api/security/{exchange}/oauth/callback'];
    expect(documented.sort()).toEqual(expected.sort());
    expect(Object.keys(doc.paths).filter((path) => !path.startsWith('/api/'))).toEqual([]);
  });

  it('lists for every operation every status it can answer, each error with the envelope schema', () => {
    for (const route of contractRoutes) {
      const operation = operationOf(route.method, route.path)!;
      const statuses = Object.keys(operation.responses).map(Number).sort((a, b) => a - b);
      expect([route.path, statuses]).toEqual([route.path, [200, ...errorStatusesOf(route)]]);
      for (const status of errorStatusesOf(route)) {
        const response = operation.responses[String(status)]!;
        expect(response.description.length).toBeGreaterThan(10);
        expect(response.content!['application/json']!.schema).toMatchObject(errorEnvelope);
      }
    }
  });

  it('lists every answer of the quick-connect callback: the redirect and its HTML error pages', () => {
    const callback = operationOf('GET', OAUTH_CALLBACK_PATH)!;
    expect(Object.keys(callback.responses).map(Number).sort((a, b) => a - b)).toEqual([302, 400, 404, 409, 410, 500, 502, 503]);
    expect(callback.responses['302']!.description).toMatch(/success page/);
    for (const status of [400, 404, 409, 410, 500, 502, 503]) {
      const response = callback.responses[String(status)]!;
      expect([status, Object.keys(response.content!)]).toEqual([status, ['text/html']]);
      expect(response.description.length).toBeGreaterThan(10);
    }
  });

  it('puts the bearer scheme on every protected operation and on no public one', () => {
    expect(doc.components.securitySchemes.bearer).toEqual({ type: 'http', scheme: 'bearer' });
    for (const route of contractRoutes) {
      const operation = operationOf(route.method, route.path)!;
      expect([route.path, operation.security]).toEqual([route.path, isPublic(route.access) ? undefined : [{ bearer: [] }]]);
    }
  });

  it('shows the limits, formats and enums that validation enforces', () => {
    const customerId = operationOf('GET', '/api/customer/:id')!.parameters!.find((p) => p.name === 'id')!;
    expect(customerId.schema).toEqual({ type: 'integer', minimum: 1, maximum: MAX_ID });
    const page = operationOf('GET', '/api/agent/all')!.parameters!;
    expect(page.find((p) => p.name === 'pageSize')).toEqual({ in: 'query', name: 'pageSize', required: false, description: 'Default 50', schema: { type: 'integer', minimum: 1, maximum: 100 } });
    const login = operationOf('POST', '/api/security/login')!.requestBody!.content['application/json']!.schema as { properties: Record<string, Record<string, unknown>> };
    expect(login.properties.email).toMatchObject({ format: 'email' });
    expect(login.properties.portal).toEqual({ type: 'string', enum: ['staff', 'customer'] });
    expect(login.properties.password).toMatchObject({ type: 'string', minLength: 1, maxLength: 200, pattern: expect.stringContaining('\\uD800') });
    const filter = operationOf('POST', '/api/customer/filter')!.requestBody!.content['application/json']!.schema as { properties: { filter: { properties: Record<string, { items: Record<string, unknown>; maxItems: number }> } } };
    expect(filter.properties.filter.properties.statuses).toMatchObject({ maxItems: 5, items: { type: 'integer', enum: [1, 2, 3, 4, 5] } });
    expect(filter.properties.filter.properties.agentIds).toMatchObject({ maxItems: 200, items: { type: 'integer', minimum: 1, maximum: MAX_ID } });
    const settings = operationOf('PUT', '/api/settings/earnings')!.requestBody!.content['application/json']!.schema as { properties: Record<string, Record<string, unknown>> };
    expect(settings.properties.defaultProfitSharePct).toEqual({ type: 'number', minimum: 0, maximum: 100 });
  });

  it('gives every text field of every request the one storable-text rule of the contract', () => {
    const unguarded: string[] = [];
    const walk = (schema: JsonSchema, where: string) => {
      const patterns = [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)];
      if (schema.type === 'string' && !schema.enum && !patterns.includes(STORABLE_TEXT.source)) unguarded.push(where);
      for (const [name, property] of Object.entries(schema.properties ?? {})) walk(property, `${where}.${name}`);
      for (const [index, branch] of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].entries()) walk(branch, `${where}|${index}`);
      if (schema.items) walk(schema.items, `${where}[]`);
    };
    let strings = 0;
    for (const route of contractRoutes) {
      for (const [part, schema] of [['params', route.params], ['query', route.query], ['body', route.body]] as const) {
        if (!schema) continue;
        const json = jsonSchemaOf(schema);
        strings += JSON.stringify(json).split('"type":"string"').length - 1;
        walk(json, `${route.method} ${route.path} ${part}`);
      }
    }
    expect(strings).toBeGreaterThan(50);
    expect(unguarded).toEqual([]);
  });

  it('describes bodies honestly: the webhook reads any text up to 64 KiB, the audit export body may be left out', () => {
    const webhook = operationOf('POST', '/api/webhook/:token')!.requestBody!;
    expect(webhook.required).toBe(false);
    expect(webhook.content['text/plain']!.schema).toEqual({ type: 'string', maxLength: 65536 });
    expect(operationOf('POST', '/api/error/export')!.requestBody!.required).toBe(false);
    expect(operationOf('POST', '/api/country/search')!.requestBody!.required).toBe(true);
  });
});
