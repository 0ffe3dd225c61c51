import { z } from 'zod';
import { strictnessNames } from './strictness';

const permissions = z.object({ read: z.boolean(), trade: z.boolean(), withdraw: z.boolean(), spot: z.boolean() }).partial();
const ips = z.array(z.string().min(1)).max(30);

export const accountInput = z.object({
  exchange: z.enum(['bybit', 'bitget']),
  uid: z.string().regex(/^\d{1,20}$/, 'uid must be digits').optional(),
  apiKey: z.string().min(8).max(64).optional(),
  secret: z.string().min(8).max(128).optional(),
  passphrase: z.string().min(6).max(32).optional(),
  label: z.string().max(100).optional(),
  permissions: permissions.optional(),
  ips: ips.optional(),
  balance: z.number().nonnegative().optional(),
  positionMode: z.enum(['oneway', 'hedge']).optional(),
  marginMode: z.enum(['cross', 'isolated']).optional(),
});

export const accountUpdate = z.object({
  label: z.string().max(100).optional(),
  permissions: permissions.optional(),
  ips: ips.optional(),
  positionMode: z.enum(['oneway', 'hedge']).optional(),
  marginMode: z.enum(['cross', 'isolated']).optional(),
  marginShort: z.boolean().optional(),
});

export const fundInput = z.object({ amount: z.number().finite(), coin: z.string().min(1).max(10).optional() });
const positive = z.number().positive().finite();
/** `price` sets last, mark and index together; `last`, `mark`, `index` set one apart (after `price` when both come). */
export const priceInput = z
  .object({ symbol: z.string(), price: positive.optional(), last: positive.optional(), mark: positive.optional(), index: positive.optional() })
  .strict()
  .refine((input) => [input.price, input.last, input.mark, input.index].some((value) => value !== undefined), 'give price, or last, mark or index');
export const stepInput = z.object({ symbol: z.string().optional(), steps: z.number().int().min(1).max(10_000).optional() });
export const walkInput = z.object({ enabled: z.boolean(), symbols: z.array(z.string()).optional(), intervalMs: z.number().int().min(10).optional() });

const share = z.number().min(0).max(1);
export const faultRule = z.object({
  exchange: z.enum(['bybit', 'bitget']).optional(),
  route: z.string().startsWith('/').optional(),
  method: z.string().optional(),
  account: z.string().optional(),
  latencyMs: z.union([z.number().nonnegative(), z.object({ min: z.number().nonnegative(), max: z.number().nonnegative() })]).optional(),
  errorShare: share.optional(),
  errorStatus: z.number().int().min(500).max(599).optional(),
  timeoutShare: share.optional(),
  timeoutMs: z.number().nonnegative().optional(),
  rateLimitShare: share.optional(),
  reject: z.object({ share: share.optional(), code: z.union([z.string(), z.number()]).transform(String), msg: z.string(), httpStatus: z.number().int().optional() }).optional(),
  hideOrderMs: z.number().int().positive().max(600_000).optional(),
  remaining: z.number().int().positive().optional(),
});
export const faultsInput = z.object({ rules: z.array(faultRule).max(100) });

const fraction = z.number().min(0).max(0.1);
export const bookInput = z
  .object({
    symbol: z.string().optional(),
    levels: z.number().int().min(1).max(100).optional(),
    levelNotional: z.number().positive().optional(),
    levelSize: z.number().positive().optional(),
    spread: fraction.optional(),
    step: fraction.optional(),
    refillMs: z.number().nonnegative().optional(),
  })
  .strict();

export const strictnessInput = z.object(Object.fromEntries(strictnessNames.map((name) => [name, z.boolean().optional()])) as Record<(typeof strictnessNames)[number], z.ZodOptional<z.ZodBoolean>>).strict();

export const ipBanInput = z.object({ ms: z.number().int().nonnegative() }).strict();

export const latencyInput = z.object({ ms: z.number().nonnegative().max(60_000) }).strict();
export const dropSocketsInput = z.object({ account: z.string().min(1).optional() }).strict();
export const fundingInput = z.object({ rate: z.number().gt(-0.1).lt(0.1).optional(), symbol: z.string().optional(), intervalMs: z.number().int().positive().optional() }).strict();
export const clockInput = z.object({ offsetMs: z.number().int().min(-86_400_000).max(86_400_000) }).strict();

export const streamDropInput = z
  .object({ exchange: z.enum(['bybit', 'bitget']).optional(), account: z.string().min(1).optional(), refuseMs: z.number().int().nonnegative().max(24 * 60 * 60_000).optional() })
  .strict();

export const streamFaultRule = z
  .object({
    exchange: z.enum(['bybit', 'bitget']).optional(),
    account: z.string().min(1).optional(),
    delayMs: z.union([z.number().nonnegative().max(60_000), z.object({ min: z.number().nonnegative(), max: z.number().nonnegative().max(60_000) })]).optional(),
    duplicateShare: share.optional(),
    stall: z.boolean().optional(),
  })
  .strict();
export const streamFaultsInput = z.object({ rules: z.array(streamFaultRule).max(100) }).strict();
