import fc from 'fast-check';
import { z } from 'zod';
import { MAX_ID } from '../../contract/common';

/** The JSON Schema subset zod writes for the contract's request schemas (OpenAPI 3.0 target). */
export interface JsonSchema {
  type?: string | string[];
  nullable?: boolean;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  default?: unknown;
}

/** What the contract documents for a zod schema: the same conversion the OpenAPI document uses. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  return z.toJSONSchema(schema, { io: 'input', target: 'openapi-3.0', unrepresentable: 'any' }) as JsonSchema;
}

const NUL = String.fromCharCode(0);
const LONE_SURROGATE = String.fromCharCode(0xd800);

/** Values no well-behaved client sends: huge and odd numbers, NUL, lone surrogates, long text, wrong types. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(2 ** 31, MAX_ID + 1, 2 ** 32, 2 ** 53, -(2 ** 53), 1e308, -1, 0, 1.5, -0.5, 9_999_999_999_999) },
  { weight: 3, arbitrary: fc.constantFrom(`a${NUL}b`, NUL, `x${LONE_SURROGATE}y`, String.fromCharCode(0xdc00), `BTC${NUL}`) },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', '%00', "'; drop table accounts; --", '<script>alert(1)</script>') },
  { weight: 1, arbitrary: fc.integer({ min: 1_000, max: 20_000 }).map((length) => 'z'.repeat(length)) },
  { weight: 2, arbitrary: fc.constantFrom(true, false, null, [], {}, [null], { nested: { deeper: [1, 'two'] } }, '1', 'true', '1e3', 'NaN') },
  { weight: 1, arbitrary: fc.string({ maxLength: 12 }) },
);

/** Text fitting the documented lengths (patterns other than "storable text" are tried, else any text). */
function textOf(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = Math.min(schema.maxLength ?? 40, 60);
  const patterns = [schema.pattern, ...(schema.allOf ?? []).map((part) => part.pattern)].filter((pattern): pattern is string => !!pattern && !pattern.includes('uD800'));
  if (schema.format === 'email') return fc.emailAddress().filter((email) => email.length <= maxLength + 200);
  if (patterns.length > 0) {
    try {
      return fc.stringMatching(new RegExp(patterns[0]!)).filter((value) => value.length >= minLength && value.length <= (schema.maxLength ?? Infinity));
    } catch {
      // A pattern fast-check cannot generate from: plain text below.
    }
  }
  return fc.string({ minLength, maxLength: Math.max(minLength, maxLength), unit: 'grapheme' });
}

function numberOf(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min = typeof schema.exclusiveMinimum === 'number' ? schema.exclusiveMinimum + (integer ? 1 : 1e-6) : (schema.minimum ?? -1e6);
  const max = typeof schema.exclusiveMaximum === 'number' ? schema.exclusiveMaximum - (integer ? 1 : 1e-6) : (schema.maximum ?? 1e6);
  const low = Math.max(min, -1e12);
  const high = Math.min(max, 1e12);
  const edges = [low, high, ...(low <= 1 && high >= 1 ? [1] : [])];
  const inRange = integer
    ? fc.oneof(fc.integer({ min: Math.ceil(low), max: Math.min(Math.floor(high), Math.ceil(low) + 50) }), fc.integer({ min: Math.ceil(low), max: Math.floor(high) }))
    : fc.double({ min: low, max: high, noNaN: true, noDefaultInfinity: true });
  return fc.oneof({ weight: 1, arbitrary: fc.constantFrom(...edges.map((edge) => (integer ? Math.round(edge) : edge))) }, { weight: 4, arbitrary: inRange });
}

/** A value the schema describes; `child` makes the values inside (valid ones, or the chaotic mix). */
function shapedValueOf(schema: JsonSchema, depth: number, child: (schema: JsonSchema, depth: number) => fc.Arbitrary<unknown>): fc.Arbitrary<unknown> {
  const nullable = schema.nullable ? [fc.constant(null)] : [];
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches && branches.length > 0) return fc.oneof(...branches.map((branch) => child(branch, depth + 1)), ...nullable);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const base = (() => {
    switch (type) {
      case 'object': {
        const properties = schema.properties ?? {};
        const record: Record<string, fc.Arbitrary<unknown>> = {};
        for (const [name, property] of Object.entries(properties)) record[name] = child(property, depth + 1);
        return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
      }
      case 'array':
        return fc.array(child(schema.items ?? {}, depth + 1), { minLength: schema.minItems ?? 0, maxLength: Math.min(schema.maxItems ?? 5, 5) });
      case 'string':
        return textOf(schema);
      case 'integer':
        return numberOf(schema, true);
      case 'number':
        return numberOf(schema, false);
      case 'boolean':
        return fc.boolean();
      default:
        return fc.oneof(fc.string({ maxLength: 10 }), fc.integer(), fc.boolean(), fc.constant(null));
    }
  })();
  return nullable.length > 0 ? fc.oneof(base, ...nullable) : base;
}

/** A value the schema accepts (as far as JSON Schema can say). */
export function validValueOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  return shapedValueOf(schema, depth, validValueOf);
}

/** Anything goes at every level: valid, hostile, or with fields nobody asked for. */
function chaoticValueOf(schema: JsonSchema, depth = 0): fc.Arbitrary<unknown> {
  const shaped = shapedValueOf(schema, depth, chaoticValueOf);
  const withUnknownFields = shaped.chain((value) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? fc.record({ unknownField: hostileValue, constructor: fc.constant('x') }, { requiredKeys: [] }).map((extra) => ({ ...value, ...extra }))
      : fc.constant(value),
  );
  return fc.oneof({ weight: 4 + depth * 2, arbitrary: shaped }, { weight: 1, arbitrary: withUnknownFields }, { weight: 2, arbitrary: hostileValue });
}

type Json = unknown;

/** Every place inside a value (the value itself, each property and item), as paths. */
function placesOf(value: Json, path: Array<string | number> = []): Array<Array<string | number>> {
  const inner =
    value !== null && typeof value === 'object'
      ? Object.entries(value).flatMap(([key, item]) => placesOf(item, [...path, Array.isArray(value) ? Number(key) : key]))
      : [];
  return [path, ...inner];
}

function replaceAt(value: Json, path: Array<string | number>, replacement: Json): Json {
  if (path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) return value.map((item, index) => (index === head ? replaceAt(item, rest, replacement) : item));
  const record = value as Record<string, Json>;
  return { ...record, [head!]: replaceAt(record[head!], rest, replacement) };
}

/** A valid value with exactly one place (at any depth) made hostile. */
function oneHostilePlaceOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.tuple(validValueOf(schema), fc.nat(), hostileValue).map(([value, pick, hostile]) => {
    const places = placesOf(value);
    return replaceAt(value, places[pick % places.length]!, hostile);
  });
}

/** Request values: valid ones, valid ones with one hostile place, and chaos. */
export function valueOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 3, arbitrary: validValueOf(schema) }, { weight: 4, arbitrary: oneHostilePlaceOf(schema) }, { weight: 2, arbitrary: chaoticValueOf(schema) });
}

/** A path segment as a client would write it (percent-encoded), including values that cannot be encoded. */
export function pathSegmentOf(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? '';
  try {
    return encodeURIComponent(text) || '%20';
  } catch {
    // A lone surrogate has no UTF-8: send the bytes a careless client would.
    return '%ED%A0%80';
  }
}

/** A query string from an object: arrays repeat their key, objects are sent as JSON text. */
export function queryStringOf(query: unknown): string {
  if (query === null || typeof query !== 'object' || Array.isArray(query)) return query === undefined ? '' : `?value=${pathSegmentOf(query)}`;
  const parts: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item === undefined) continue;
      parts.push(`${encodeURIComponent(key)}=${pathSegmentOf(typeof item === 'string' ? item : String(typeof item === 'object' ? JSON.stringify(item) : item))}`);
    }
  }
  return parts.length > 0 ? `?${parts.join('&')}` : '';
}

/**
 * JSON texts of hostile shape: nested thousands of levels deep (arrays, objects, or both mixed) or
 * holding tens of thousands of values, most of them still under the webhook's 64 KiB body limit.
 * An object wrapper names an action now and then, so a webhook reads past its first checks.
 */
export const deepOrWideJson: fc.Arbitrary<string> = fc.oneof(
  fc.record({ levels: fc.integer({ min: 1, max: 12_000 }), opener: fc.constantFrom('[', '{"a":', '[{"b":'), action: fc.boolean() }).map(({ levels, opener, action }) => {
    const closer = opener === '[' ? ']' : opener === '{"a":' ? '}' : '}]';
    const inner = `${opener.repeat(levels)}1${closer.repeat(levels)}`;
    return action ? `{"action":"open","x":${inner}}` : inner;
  }),
  fc.record({ values: fc.integer({ min: 1, max: 30_000 }), item: fc.constantFrom('1', '"a"', '{}', '[]', 'null'), action: fc.boolean() }).map(({ values, item, action }) => {
    const list = `[${Array.from({ length: values }, () => item).join(',')}]`;
    return action ? `{"action":"close","x":${list}}` : list;
  }),
);
