import { z } from 'zod';

/** The envelope every API answer uses, errors included. */
export const errorBody = z.object({ message: z.string() });

export function envelopeOf<T extends z.ZodType>(data: T) {
  return z.object({ successful: z.boolean(), data: data.nullable(), error: errorBody.nullable() });
}

export type Envelope<T> = { successful: true; data: T; error: null } | { successful: false; data: null; error: { message: string } };

export const paging = z.object({
  totalCount: z.number().int().nonnegative(),
  pageIndex: z.number().int().nonnegative(),
  pageSize: z.number().int().positive(),
});
export type Paging = z.infer<typeof paging>;

/** A paged answer: `data.data` rows and `data.paging.totalCount`. */
export function pagedOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), paging });
}
export type Paged<T> = { data: T[]; paging: Paging };

/** Answer of endpoints whose only result is success. */
export const success = z.object({ success: z.literal(true) });
export type Success = z.infer<typeof success>;
