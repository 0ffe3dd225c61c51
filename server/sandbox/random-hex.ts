import { randomFillSync } from 'node:crypto';

/**
 * Random bytes as hex, read from the system 4 KiB at a time: every order and every answer carries a
 * random id (thousands a second in a fan-out), and one read per id was ~9% of the sandbox's main thread.
 */
const pool = Buffer.alloc(4096);
let offset = pool.length;

export function randomHex(bytes: number): string {
  if (bytes > pool.length) throw new RangeError(`randomHex reads at most ${pool.length} bytes, not ${bytes}`);
  if (offset + bytes > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  const hex = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return hex;
}
