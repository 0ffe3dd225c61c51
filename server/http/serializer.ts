import { safeEncode, type $ZodType } from 'zod/v4/core';

/**
 * Answers are written by a serializer compiled once per route and status from the contract's zod
 * schema: one pass over the answer that checks every value against the schema and writes its JSON,
 * instead of zod building a checked copy that JSON.stringify then walks again. The output is what
 * `JSON.stringify(z.encode(schema, answer))` gives: the schema's keys in the schema's order, keys it
 * does not name left out. A value that breaks the contract throws (the answer becomes a 500, never
 * sent). Kinds it does not compile (unions, transforms, refinements...) are run through zod itself.
 */
type Write = (value: unknown, path: string) => string;
/** A property writer: the JSON of `"key":value`, or '' when an optional key is absent. */
type WriteProperty = (owner: Record<string, unknown>, path: string) => string;

interface SchemaDef {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  check?: string;
  format?: string;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
}

interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}

/** A value of an answer that breaks its schema: where, what was expected, what came. */
export class ContractViolation extends Error {}

/** An answer that breaks the contract: a 500 for the caller (the error handler logs it), nothing of it sent. */
export class AnswerBreaksContract extends Error {
  readonly statusCode = 500;
  constructor(method: string, url: string, violation: ContractViolation) {
    super(`The answer of ${method} ${url} breaks its contract: ${violation.message}`, { cause: violation });
  }
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as SchemaDef;

function violation(path: string, expected: string, value: unknown): never {
  const got = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  throw new ContractViolation(`${path || 'answer'}: expected ${expected}, got ${got}`);
}

/** A number check compiled here: whole numbers (`int()`) and bounds (`min`, `max`, `positive`...). */
type NumberCheck = (value: number) => string | undefined;

function numberCheckOf(check: CheckDef): NumberCheck | undefined {
  if (check.check === 'number_format' && check.format === 'safeint') return (n) => (Number.isSafeInteger(n) ? undefined : 'a whole number');
  if (typeof check.value !== 'number') return undefined;
  const bound = check.value;
  if (check.check === 'greater_than') return check.inclusive ? (n) => (n >= bound ? undefined : `a number >= ${bound}`) : (n) => (n > bound ? undefined : `a number > ${bound}`);
  if (check.check === 'less_than') return check.inclusive ? (n) => (n <= bound ? undefined : `a number <= ${bound}`) : (n) => (n < bound ? undefined : `a number < ${bound}`);
  return undefined;
}

/** `z.int()` is itself the check; `z.number().int()` carries it in `checks`. */
function numberChecksOf(def: SchemaDef): Array<NumberCheck | undefined> {
  const own = def.check === undefined ? [] : [def as CheckDef];
  return [...own, ...(def.checks ?? []).map((c) => c._zod.def)].map(numberCheckOf);
}

/** The kinds compiled here, with checks they carry; anything else is handed to zod. */
function compilable(def: SchemaDef): boolean {
  const checks = (def.checks ?? []).map((c) => c._zod.def);
  if (def.type === 'number') return numberChecksOf(def).every((check) => check !== undefined);
  if (def.type === 'object') return checks.length === 0 && def.catchall === undefined;
  return checks.length === 0 && ['string', 'boolean', 'null', 'array', 'nullable', 'optional', 'literal', 'enum'].includes(def.type);
}

/** A subtree zod runs: its encoded value, stringified (the serializer zod's provider uses). */
function throughZod(schema: $ZodType): Write {
  return (value, path) => {
    const result = safeEncode(schema, value);
    if (!result.success) throw new ContractViolation(`${path || 'answer'}: ${result.error.issues.map((issue) => issue.message).join('; ')}`);
    return JSON.stringify(result.data) ?? violation(path, 'a value JSON can carry', value);
  };
}

function compileObject(shape: Record<string, $ZodType>): Write {
  const properties: WriteProperty[] = Object.entries(shape).map(([key, schema]) => {
    const label = JSON.stringify(key);
    const optional = defOf(schema).type === 'optional';
    const write = compile(schema);
    return (owner, path) => {
      const value = owner[key];
      if (value === undefined && optional) return '';
      return `${label}:${write(value, `${path}.${key}`)}`;
    };
  });
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return violation(path, 'an object', value);
    let out = '';
    for (const property of properties) {
      const written = property(value as Record<string, unknown>, path);
      if (written) out = out ? `${out},${written}` : written;
    }
    return `{${out}}`;
  };
}

function compileArray(element: $ZodType): Write {
  const write = compile(element);
  return (value, path) => {
    if (!Array.isArray(value)) return violation(path, 'an array', value);
    const parts = new Array<string>(value.length);
    for (let i = 0; i < value.length; i += 1) parts[i] = write(value[i], `${path}[${i}]`);
    return `[${parts.join(',')}]`;
  };
}

function compileNumber(def: SchemaDef): Write {
  const checks = numberChecksOf(def) as NumberCheck[];
  return (value, path) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return violation(path, 'a finite number', value);
    for (const check of checks) {
      const expected = check(value);
      if (expected) return violation(path, expected, value);
    }
    return String(value);
  };
}

function compileOneOf(values: unknown[]): Write {
  const allowed = new Set(values);
  return (value, path) => (allowed.has(value) ? JSON.stringify(value) : violation(path, `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`, value));
}

export function compile(schema: $ZodType): Write {
  const def = defOf(schema);
  if (!compilable(def)) return throughZod(schema);
  switch (def.type) {
    case 'object':
      return compileObject(def.shape!);
    case 'array':
      return compileArray(def.element!);
    case 'number':
      return compileNumber(def);
    case 'string':
      return (value, path) => (typeof value === 'string' ? JSON.stringify(value) : violation(path, 'a string', value));
    case 'boolean':
      return (value, path) => (typeof value === 'boolean' ? (value ? 'true' : 'false') : violation(path, 'true or false', value));
    case 'null':
      return (value, path) => (value === null ? 'null' : violation(path, 'null', value));
    case 'nullable': {
      const inner = compile(def.innerType!);
      return (value, path) => (value === null ? 'null' : inner(value, path));
    }
    case 'optional': {
      const inner = compile(def.innerType!);
      // Reached only outside an object (inside one, an absent optional key is left out).
      return (value, path) => (value === undefined ? violation(path, 'a value', value) : inner(value, path));
    }
    case 'literal':
      return compileOneOf(def.values!);
    default:
      return compileOneOf(Object.values(def.entries!));
  }
}

/** Fastify's serializer compiler: one compiled writer per route and status. */
export function contractSerializerCompiler({ schema, method, url }: { schema: unknown; method: string; url: string }): (data: unknown) => string {
  const write = compile(schema as $ZodType);
  return (data) => {
    try {
      return write(data, '');
    } catch (error) {
      if (error instanceof ContractViolation) throw new AnswerBreaksContract(method, url, error);
      throw error;
    }
  };
}
