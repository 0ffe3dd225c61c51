import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_INDEX, MAX_PAGE_SIZE, MONTH_PATTERN } from './constants';
import { server } from './messages';

// A missing field reads "is required" rather than zod's "expected string, received undefined".
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null) ? 'is required' : undefined),
});

/**
 * Text PostgreSQL can store: no NUL character, and no half of a UTF-16 surrogate pair without its
 * other half (a JSON string may carry one as "\ud800"; it is no character and would be silently
 * replaced). Written as a pattern so the OpenAPI document shows the rule that validation applies.
 */
const NUL = String.fromCharCode(0);
// Built from a string because the rule names NUL on purpose (a regex literal holding it reads as a slip).
export const STORABLE_TEXT = new RegExp(`^(?:[^${NUL}\\uD800-\\uDFFF]|[\\uD800-\\uDBFF][\\uDC00-\\uDFFF])*$`);

export function isStorableText(value: string): boolean {
  return STORABLE_TEXT.test(value);
}

/** Every text field of every request: a string that PostgreSQL can store, refused with a clear 400 otherwise. */
export function text(options: { error?: string } = {}) {
  return z.string(options.error ? { error: options.error } : undefined).regex(STORABLE_TEXT, server.unstorableText);
}

/** Ids are PostgreSQL `integer` keys: 1 to 2147483647. */
export const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a JSON number only (`true` or `"5"` are not ids). `error` replaces every message. */
export function idOf(error?: string) {
  return z
    .number({ error: error ?? 'must be a number' })
    .int(error ?? 'must be a whole number')
    .min(1, error ?? 'must be a positive id')
    .max(MAX_ID, error ?? `must be at most ${MAX_ID} (ids are whole numbers from 1 to ${MAX_ID})`);
}
export const id = idOf();

/** A number written in a path or query string ("12", "-3", "1.5"); anything else is not a number. */
const NUMBER_TEXT = /^-?\d+(\.\d+)?$/;

/** The JSON schema of `schema` as the OpenAPI document shows it, to document a value read differently. */
function documentedAs(schema: z.ZodType): Record<string, unknown> {
  const documented: Record<string, unknown> = { ...z.toJSONSchema(schema, { target: 'openapi-3.0', io: 'input' }), pattern: undefined, anyOf: undefined };
  delete documented.$schema;
  return documented;
}

/**
 * A path or query value read as the number `schema` describes. Only digits (with an optional sign
 * and decimals) are read: "true", "" or "1e3" are refused. The OpenAPI document shows the number's
 * own type and limits, which is what the server enforces after reading the digits. (Clients may
 * pass a number: path and query values reach the server as text either way.)
 */
export function numberFromText(schema: z.ZodNumber, error = 'must be a number') {
  return z
    .union([z.number(), z.string().trim().regex(NUMBER_TEXT).transform(Number)], { error })
    .pipe(schema)
    .meta(documentedAs(schema));
}

/**
 * `numberFromText` with a default for a value left out (said in the description: JSON Schema cannot
 * carry the default of a value read from text).
 */
function numberFromTextOr(schema: z.ZodNumber, error: string, defaultValue: number) {
  return numberFromText(schema, error)
    .default(defaultValue)
    .meta({ ...documentedAs(schema), description: `Default ${defaultValue}` });
}

/**
 * A number that must be one of `values`, with one readable message; documented as an enum. The
 * values are checked at run time, so clients may hold them as plain numbers.
 */
export function numberOneOf(values: readonly number[], error: string) {
  return z
    .number({ error })
    .refine((value) => values.includes(value), { error })
    .meta({ type: 'integer', enum: [...values] });
}

/** An id in a path or a query string. */
export const idParam = numberFromText(id);
export const idParams = z.object({ id: idParam });
export type IdParams = z.infer<typeof idParams>;

const pageIndexNumber = z
  .number({ error: 'pageIndex must be a number' })
  .int('pageIndex must be a whole number')
  .min(0, 'pageIndex starts at 0')
  .max(MAX_PAGE_INDEX, `pageIndex must be at most ${MAX_PAGE_INDEX}`);
const pageSizeNumber = z
  .number({ error: 'pageSize must be a number' })
  .int('pageSize must be a whole number')
  .min(1, 'pageSize must be at least 1')
  .max(MAX_PAGE_SIZE, server.pageSizeTooLarge);

/** pageIndex + pageSize in a JSON body. */
export function pageRequestOf(defaultSize: number = DEFAULT_PAGE_SIZE) {
  return z.object({ pageIndex: pageIndexNumber.default(0), pageSize: pageSizeNumber.default(defaultSize) });
}
export const pageRequest = pageRequestOf();
export type PageRequest = z.infer<typeof pageRequest>;

/** pageIndex + pageSize in a query string (GET lists). */
export function pageQueryOf(defaultSize: number = DEFAULT_PAGE_SIZE) {
  return z.object({
    pageIndex: numberFromTextOr(pageIndexNumber, 'pageIndex must be a number', 0),
    pageSize: numberFromTextOr(pageSizeNumber, 'pageSize must be a number', defaultSize),
  });
}

/** The spec's `filter: [{ name, value }]` list used by strategy, order, audit and country searches. */
export const filterItem = z.object({
  name: text().min(1, 'filter name is required').max(100, 'filter name is too long'),
  value: z.union([text().max(200, 'filter value is too long'), z.number().finite(), z.boolean(), z.null()], {
    error: 'filter value must be text (at most 200 characters), a number, true/false or null',
  }),
});
export type FilterItem = z.infer<typeof filterItem>;

/** A filter item whose name must be one of `names`: a search refuses a filter it would otherwise ignore. */
export function filterItemNamed(names: readonly [string, ...string[]]) {
  return filterItem.extend({
    name: z.enum(names, { error: (issue) => `filter name must be one of ${names.join(', ')}; '${String(issue.input).slice(0, 100)}' is not one of them` }),
  });
}

export const month = text().regex(MONTH_PATTERN, 'must be a month written YYYY-MM');

export const sort = z.object({
  name: text().min(1),
  type: z.literal([1, 2], { error: 'sort type must be 1 (ascending) or 2 (descending)' }),
});

export const email = text()
  .trim()
  .toLowerCase()
  .max(254, 'must be at most 254 characters')
  .pipe(z.email('must be a valid email address'))
  .meta({ format: 'email' });
export const password = text().min(8, 'Password must be at least 8 characters').max(200, 'Password is too long');
export const personName = text().trim().min(1, 'is required').max(100, 'must be at most 100 characters');
