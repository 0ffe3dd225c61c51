import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { $ZodType } from 'zod/v4/core';
import { customer, customerRoutes } from '../../contract/api/customer';
import { envelopeOf } from '../../contract/envelope';
import { defineRoute } from '../../contract/route';
import { registerRoute } from '../../server/http/route';
import { compile, contractSerializerCompiler, serialize } from '../../server/http/serializer';
import { deepFreeze, isDeepFrozen } from '../../server/lib/deep-freeze';
import { createTestContext, type TestContext } from '../helpers/test-app';
import { contractRoutes } from './contract-routes';

interface Def {
  type: string;
  shape?: Record<string, $ZodType>;
  element?: $ZodType;
  innerType?: $ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
  checks?: Array<{ _zod: { def: { check: string; value?: number; inclusive?: boolean; format?: string } } }>;
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as Def;

/**
 * Values a handler could answer for `schema`: they fit it, some with keys it does not name or with
 * its keys in another order (both written by the schema's keys in order, like zod does).
 */
function arbitraryOf(schema: $ZodType): fc.Arbitrary<unknown> {
  const def = defOf(schema);
  switch (def.type) {
    case 'object': {
      const shape = Object.fromEntries(Object.entries(def.shape!).map(([key, child]) => [key, arbitraryOf(child)]));
      const extras = fc.dictionary(fc.constantFrom('extra', 'secret', 'toJSON'), fc.string(), { maxKeys: 2 });
      return fc.tuple(fc.record(shape), extras, fc.boolean()).map(([known, extra, reversed]) => {
        const entries = Object.entries(known);
        return { ...Object.fromEntries(reversed ? entries.reverse() : entries), ...extra };
      });
    }
    case 'array':
      return fc.array(arbitraryOf(def.element!), { maxLength: 4 });
    case 'nullable':
      return fc.option(arbitraryOf(def.innerType!), { nil: null });
    case 'optional':
      return fc.option(arbitraryOf(def.innerType!), { nil: undefined });
    case 'string':
      return fc.string({ unit: 'binary', maxLength: 12 });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'literal':
      return fc.constantFrom(...def.values!);
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries!));
    case 'number': {
      const checks = (def.checks ?? []).map((c) => c._zod.def);
      const min = checks.find((c) => c.check === 'greater_than');
      const max = checks.find((c) => c.check === 'less_than');
      if (checks.some((c) => c.format === 'safeint')) {
        return fc.integer({ min: min ? min.value! + (min.inclusive ? 0 : 1) : -1e6, max: max ? max.value! - (max.inclusive ? 0 : 1) : 1e9 });
      }
      return fc.double({ noNaN: true, noDefaultInfinity: true, min: min?.value ?? -1e12, max: max?.value ?? 1e12, minExcluded: min ? !min.inclusive : false, maxExcluded: max ? !max.inclusive : false });
    }
    default:
      throw new Error(`no arbitrary for ${def.type}`);
  }
}

/** What zod's own serializer (the one replaced) writes, or undefined when zod refuses the value. */
function throughZod(schema: $ZodType, value: unknown): string | undefined {
  const result = z.safeEncode(schema as z.ZodType, value);
  return result.success ? JSON.stringify(result.data) : undefined;
}

function compiled(schema: $ZodType, value: unknown): string | undefined {
  try {
    return serialize(compile(schema), value);
  } catch {
    return undefined;
  }
}

/** The answer with one value somewhere inside replaced by `wrong`. */
function breakOne(value: unknown, pick: number, wrong: unknown): unknown {
  let index = 0;
  const walk = (node: unknown): unknown => {
    if (index++ === pick) return wrong;
    if (Array.isArray(node)) return node.map(walk);
    if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, walk(v)]));
    return node;
  };
  return walk(value);
}

/** A customer answer that fits the contract. */
const validCustomer = {
  id: 7,
  account: {
    id: 3, firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com', age: 30, phone: null, gender: 1, country: null, status: 3,
    datetimeInserted: '2025-01-01T00:00:00.000Z', role: { accountType: 1 },
  },
  agent: null, registrationId: null, group: 1, applicationSource: 1, platformType: 2, exchangeAccountUUID: 'uid-1', apiKey: '****1234',
  apiSecret: null, passphrase: null, hasApiSecret: true, hasPassphrase: false, currentWalletAmount: 12.5, totalTransactions: 3,
  referralCode: null, profitSharePct: null, datetimeInserted: '2025-01-01T00:00:00.000Z',
};

describe('the compiled answer serializer', () => {
  const answers = contractRoutes.map((route) => [`${route.method} ${route.path}`, envelopeOf(route.data)] as const);

  it.each(answers)('writes %s byte for byte as zod did, keys the contract does not name left out', (_name, schema) => {
    fc.assert(
      fc.property(arbitraryOf(schema), (value) => {
        const expected = throughZod(schema, value);
        expect(expected).toBeDefined();
        expect(compiled(schema, value)).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });

  it.each(answers)('writes %s the same bytes when its data is kept and shared (deep-frozen), every time it is sent', (_name, schema) => {
    const node = compile(schema);
    fc.assert(
      fc.property(arbitraryOf(schema), (value) => {
        const expected = throughZod(schema, value);
        const envelope = value as { data: unknown };
        deepFreeze(envelope.data);
        // A new envelope around the kept data each time, as every request builds it.
        expect(serialize(node, { ...envelope })).toBe(expected);
        expect(serialize(node, { ...envelope })).toBe(expected);
      }),
      { numRuns: 40 },
    );
  });

  it('refuses kept (deep-frozen) data that breaks the contract every time, not only the first', () => {
    const node = compile(envelopeOf(customerRoutes.byId.data));
    const kept = deepFreeze({ ...validCustomer, apiSecret: 'leaked-secret-value' });
    for (let i = 0; i < 2; i += 1) expect(() => serialize(node, { successful: true, data: kept, error: null })).toThrow('expected null, got string');
  });

  it('writes kept data again when it holds a value freezing does not fix (a Date): never from an earlier answer', () => {
    const schema = z.object({ at: z.string(), rows: z.array(z.object({ n: z.number() })) });
    const node = compile(schema);
    const rows = [{ n: 1 }];
    const kept = deepFreeze({ at: 'x', rows, when: new Date(0) });
    expect(isDeepFrozen(kept)).toBe(false);
    expect(isDeepFrozen(rows)).toBe(true);
    expect(serialize(node, kept)).toBe('{"at":"x","rows":[{"n":1}]}');
  });

  it.each(answers)('refuses a %s answer that breaks the contract, wherever the wrong value is', (_name, schema) => {
    const wrongs = fc.constantFrom<unknown>('12.5', 1.5, Number.NaN, Number.POSITIVE_INFINITY, undefined, {}, [], true, new Date(0), -1);
    fc.assert(
      fc.property(arbitraryOf(schema), fc.nat(200), wrongs, (value, pick, wrong) => {
        const broken = breakOne(value, pick, wrong);
        // Both agree: refused by zod exactly when refused here, and the same bytes when accepted.
        expect(compiled(schema, broken)).toBe(throughZod(schema, broken));
      }),
      { numRuns: 60 },
    );
  });
});

describe('an answer that breaks the contract', () => {
  let ctx: TestContext;
  const leaky = defineRoute({ method: 'GET', path: '/api/test/leaky', access: 'public', tag: 'test', summary: 'test', data: customer });
  let answer: Record<string, unknown> = validCustomer;

  beforeAll(async () => {
    ctx = await createTestContext({ app: { extraPlugins: [(app) => registerRoute(app, leaky, async () => answer as z.input<typeof customer>)] } });
  });
  afterAll(async () => ctx?.close());

  it('sends the contract answer when it fits', async () => {
    answer = validCustomer;
    const result = await ctx.api('GET', '/api/test/leaky');
    expect(result.status).toBe(200);
    expect(result.body).toEqual({ successful: true, data: customer.parse(validCustomer), error: null });
  });

  it('answers 500 and sends nothing of it when a secret, a numeric string or a Date slips in', async () => {
    for (const broken of [{ apiSecret: 'leaked-secret-value' }, { currentWalletAmount: '12.50000000' }, { datetimeInserted: new Date(0) }]) {
      answer = { ...validCustomer, ...broken };
      const result = await ctx.api('GET', '/api/test/leaky');
      expect(result.status).toBe(500);
      expect(result.body).toEqual({ successful: false, data: null, error: { message: expect.any(String) } });
      expect(JSON.stringify(result.body)).not.toContain('leaked-secret-value');
      expect(JSON.stringify(result.body)).not.toContain('12.5');
    }
  });

  it('names the route and the broken field in the error it raises (for the log), never the value', () => {
    const serialize = contractSerializerCompiler({ schema: envelopeOf(customerRoutes.byId.data), method: 'GET', url: '/api/customer/:id' });
    expect(() => serialize({ successful: true, data: { ...validCustomer, apiSecret: 'leaked-secret-value' }, error: null })).toThrow(
      'The answer of GET /api/customer/:id breaks its contract: .data.apiSecret: expected null, got string',
    );
  });
});
