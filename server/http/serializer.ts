import { safeEncode, type $ZodType } from 'zod/v4/core';
import { isDeepFrozen } from '../lib/deep-freeze';

/**
 * Answers are written by a serializer compiled once per route and status from the contract's zod
 * schema, instead of zod building a checked copy of every answer that JSON.stringify then walks.
 * The compiled check walks the answer once without allocating; when every object's keys are the
 * schema's own in the schema's order (what the handlers build), the answer is written by
 * JSON.stringify as it is, else by a writer that takes the schema's keys in order. The bytes are
 * those of `JSON.stringify(z.encode(schema, answer))` either way. A value that breaks the contract
 * throws: the caller gets a 500 and nothing of the answer. Kinds not compiled here (unions,
 * transforms, refinements...) are run through zod itself.
 */
interface Compiled {
  /** Throws a ContractViolation, else says whether JSON.stringify(value) writes the contract's bytes. */
  check(value: unknown): boolean;
  /** The contract's JSON of a checked value. */
  write(value: unknown): string;
}

interface CheckDef {
  check: string;
  format?: string;
  value?: unknown;
  inclusive?: boolean;
}

interface SchemaDef extends Partial<CheckDef> {
  type: string;
  checks?: Array<{ _zod: { def: CheckDef } }>;
  shape?: Record<string, $ZodType>;
  catchall?: $ZodType;
  element?: $ZodType;
  innerType?: $ZodType;
  values?: unknown[];
  entries?: Record<string, unknown>;
}

const defOf = (schema: $ZodType) => schema._zod.def as unknown as SchemaDef;

/** A value of an answer that breaks its schema: where (filled in on the way out), what was expected, what came. */
export class ContractViolation extends Error {
  readonly path: Array<string | number> = [];
  constructor(
    readonly expected: string,
    readonly got: string,
  ) {
    super(`expected ${expected}, got ${got}`);
  }
  get where(): string {
    return this.path.map((part) => (typeof part === 'number' ? `[${part}]` : `.${part}`)).join('') || 'answer';
  }
}

/** An answer that breaks the contract: a 500 for the caller (the error handler logs it), nothing of it sent. */
export class AnswerBreaksContract extends Error {
  readonly statusCode = 500;
  constructor(method: string, url: string, violation: ContractViolation) {
    super(`The answer of ${method} ${url} breaks its contract: ${violation.where}: ${violation.message}`, { cause: violation });
  }
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (value instanceof Date) return 'Date';
  if (typeof value === 'number' && !Number.isFinite(value)) return String(value);
  return typeof value;
}

function refuse(expected: string, value: unknown): never {
  throw new ContractViolation(expected, kindOf(value));
}

/** Checks a part of the answer, naming the part in a violation found inside it. */
function checkPart(node: Compiled, value: unknown, part: string | number): boolean {
  try {
    return node.check(value);
  } catch (error) {
    if (error instanceof ContractViolation) error.path.unshift(part);
    throw error;
  }
}

/** Scalars: a check and JSON.stringify, which writes them exactly as zod's output would be written. */
function scalar(accepts: (value: unknown) => string | undefined): Compiled {
  return {
    check: (value) => {
      const refused = accepts(value);
      if (refused) refuse(refused, value);
      return true;
    },
    write: (value) => JSON.stringify(value),
  };
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

function compileNumber(def: SchemaDef): Compiled {
  const checks = numberChecksOf(def) as NumberCheck[];
  return scalar((value) => {
    if (typeof value !== 'number' || !Number.isFinite(value)) return 'a finite number';
    for (const check of checks) {
      const refused = check(value);
      if (refused) return refused;
    }
    return undefined;
  });
}

function compileOneOf(values: unknown[]): Compiled {
  const allowed = new Set(values);
  const expected = `one of ${values.map((v) => JSON.stringify(v)).join(', ')}`;
  return scalar((value) => (allowed.has(value) ? undefined : expected));
}

interface Property {
  key: string;
  label: string;
  optional: boolean;
  node: Compiled;
}

function compileObject(shape: Record<string, $ZodType>): Compiled {
  const properties: Property[] = Object.entries(shape).map(([key, schema]) => ({
    key,
    label: JSON.stringify(key),
    optional: defOf(schema).type === 'optional',
    node: compile(schema),
  }));
  const byKey = new Map(properties.map((property, index) => [property.key, index]));
  return {
    check: (value) => {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) refuse('an object', value);
      const owner = value as Record<string, unknown>;
      let canonical = Object.getPrototypeOf(owner) === Object.prototype;
      let present = 0;
      for (const property of properties) {
        const child = owner[property.key];
        if (child === undefined && property.optional) continue;
        present += 1;
        if (!checkPart(property.node, child, property.key)) canonical = false;
      }
      // Canonical: its enumerable keys are the schema's present ones, in the schema's order.
      let last = -1;
      let seen = 0;
      for (const key in owner) {
        const index = byKey.get(key);
        if (index === undefined || index < last) return false;
        last = index;
        seen += 1;
      }
      return canonical && seen === present;
    },
    write: (value) => {
      const owner = value as Record<string, unknown>;
      const parts: string[] = [];
      for (const property of properties) {
        const child = owner[property.key];
        if (child === undefined && property.optional) continue;
        parts.push(`${property.label}:${property.node.write(child)}`);
      }
      return `{${parts.join(',')}}`;
    },
  };
}

function compileArray(element: $ZodType): Compiled {
  const node = compile(element);
  return {
    check: (value) => {
      if (!Array.isArray(value)) refuse('an array', value);
      let canonical = true;
      for (let i = 0; i < value.length; i += 1) if (!checkPart(node, value[i], i)) canonical = false;
      return canonical;
    },
    write: (value) => `[${(value as unknown[]).map((item) => node.write(item)).join(',')}]`,
  };
}

function compileNullable(inner: Compiled): Compiled {
  return { check: (value) => value === null || inner.check(value), write: (value) => (value === null ? 'null' : inner.write(value)) };
}

/** A subtree zod runs: its encoded value, stringified (the serializer zod's provider used). */
function throughZod(schema: $ZodType): Compiled {
  const encode = (value: unknown) => {
    const result = safeEncode(schema, value);
    if (!result.success) throw new ContractViolation(result.error.issues.map((issue) => issue.message).join('; '), kindOf(value));
    return result.data;
  };
  return {
    check: (value) => {
      encode(value);
      return false;
    },
    write: (value) => JSON.stringify(encode(value)) ?? refuse('a value JSON can carry', value),
  };
}

/** The kinds compiled here, with the checks they carry; anything else is handed to zod. */
function compilable(def: SchemaDef): boolean {
  if (def.type === 'number') return numberChecksOf(def).every((check) => check !== undefined);
  if ((def.checks ?? []).length > 0) return false;
  if (def.type === 'object') return def.catchall === undefined;
  return ['string', 'boolean', 'null', 'array', 'nullable', 'optional', 'literal', 'enum'].includes(def.type);
}

/**
 * A value that can no longer change (kept rows and answers shared between requests, deep-frozen) is
 * checked and written once per schema node: later answers holding it copy its JSON. Its holder is
 * then written part by part (check answers false), since JSON.stringify cannot take a written part.
 */
function writtenOnce(node: Compiled): Compiled {
  const written = new WeakMap<object, string>();
  return {
    check: (value) => {
      if (!isDeepFrozen(value)) return node.check(value);
      if (!written.has(value)) written.set(value, node.check(value) ? JSON.stringify(value) : node.write(value));
      return false;
    },
    write: (value) => (isDeepFrozen(value) ? written.get(value) : undefined) ?? node.write(value),
  };
}

export function compile(schema: $ZodType): Compiled {
  const def = defOf(schema);
  if (!compilable(def)) return throughZod(schema);
  switch (def.type) {
    case 'object':
      return writtenOnce(compileObject(def.shape!));
    case 'array':
      return writtenOnce(compileArray(def.element!));
    case 'number':
      return compileNumber(def);
    case 'string':
      return scalar((value) => (typeof value === 'string' ? undefined : 'a string'));
    case 'boolean':
      return scalar((value) => (typeof value === 'boolean' ? undefined : 'true or false'));
    case 'null':
      return scalar((value) => (value === null ? undefined : 'null'));
    case 'nullable':
      return compileNullable(compile(def.innerType!));
    case 'optional': {
      // Reached only outside an object: inside one, an absent optional key is left out.
      const inner = compile(def.innerType!);
      return { check: (value) => (value === undefined ? refuse('a value', value) : inner.check(value)), write: (value) => inner.write(value) };
    }
    case 'literal':
      return compileOneOf(def.values!);
    default:
      return compileOneOf(Object.values(def.entries!));
  }
}

/** The contract's JSON of `value`, or a ContractViolation. */
export function serialize(compiled: Compiled, value: unknown): string {
  return compiled.check(value) ? JSON.stringify(value) : compiled.write(value);
}

/** Fastify's serializer compiler: one compiled schema per route and status. */
export function contractSerializerCompiler({ schema, method, url }: { schema: unknown; method: string; url: string }): (data: unknown) => string {
  const compiled = compile(schema as $ZodType);
  return (data) => {
    try {
      return serialize(compiled, data);
    } catch (error) {
      if (error instanceof ContractViolation) throw new AnswerBreaksContract(method, url, error);
      throw error;
    }
  };
}
