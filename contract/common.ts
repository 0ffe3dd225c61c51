import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MONTH_PATTERN } from './constants';
import { server } from './messages';

// A missing field reads "is required" rather than zod's "expected string, received undefined".
z.config({
  customError: (issue) => (issue.code === 'invalid_type' && (issue.input === undefined || issue.input === null) ? 'is required' : undefined),
});

export const id = z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be a positive id');
export const idParams = z.object({ id });
export type IdParams = z.infer<typeof idParams>;

export const pageIndex = z.coerce.number({ error: 'pageIndex must be a number' }).int().min(0, 'pageIndex starts at 0');
export function pageSizeOf(defaultSize: number = DEFAULT_PAGE_SIZE) {
  return z.coerce
    .number({ error: 'pageSize must be a number' })
    .int()
    .min(1, 'pageSize must be at least 1')
    .max(MAX_PAGE_SIZE, server.pageSizeTooLarge)
    .default(defaultSize);
}
export const pageSize = pageSizeOf();

/** pageIndex + pageSize in a JSON body. */
export function pageRequestOf(defaultSize: number = DEFAULT_PAGE_SIZE) {
  return z.object({ pageIndex: pageIndex.default(0), pageSize: pageSizeOf(defaultSize) });
}
export const pageRequest = pageRequestOf();
export type PageRequest = z.infer<typeof pageRequest>;

/** The spec's `filter: [{ name, value }]` list used by strategy, order, audit and country searches. */
export const filterItem = z.object({
  name: z.string().min(1, 'filter name is required'),
  value: z.union([z.string(), z.number(), z.boolean(), z.null()]),
});
export type FilterItem = z.infer<typeof filterItem>;

export const month = z.string().regex(MONTH_PATTERN, 'must be a month written YYYY-MM');

export const sort = z.object({
  name: z.string().min(1),
  type: z.union([z.literal(1), z.literal(2)], { error: 'sort type must be 1 (ascending) or 2 (descending)' }),
});

export const email = z.string().trim().toLowerCase().pipe(z.email('must be a valid email address')).pipe(z.string().max(254));
export const password = z.string().min(8, 'Password must be at least 8 characters').max(200, 'Password is too long');
export const personName = z.string().trim().min(1, 'is required').max(100);
