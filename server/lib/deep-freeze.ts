/** Plain objects and arrays frozen with everything they hold (Object.isFrozen says it of one level only). */
const deeplyFrozen = new WeakSet<object>();

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * Freezes a value shared between requests (kept rows and answers), so code that writes into it
 * fails instead of changing another request's answer. Plain objects and arrays whose every part is
 * frozen too are marked deeply frozen (`isDeepFrozen`); a Date or any other object, whose state
 * freezing does not cover, keeps its holders from being marked.
 */
export function deepFreeze<T>(value: T): T {
  deepFreezeAll(value);
  return value;
}

function deepFreezeAll(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (deeplyFrozen.has(value)) return true;
  Object.freeze(value);
  let deep = isPlain(value);
  for (const child of Object.values(value)) if (!deepFreezeAll(child)) deep = false;
  if (deep) deeplyFrozen.add(value);
  return deep;
}

/** Whether nothing in `value` can change any more (frozen by `deepFreeze`, all of it). */
export function isDeepFrozen(value: unknown): value is object {
  return typeof value === 'object' && value !== null && deeplyFrozen.has(value);
}
