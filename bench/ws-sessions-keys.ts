import { createHash } from 'node:crypto';

/** The bench's sandbox account `index`: its key and secret follow from the index (both processes derive them). */
export function benchCredentials(index: number): { apiKey: string; secret: string } {
  const digest = createHash('sha256').update(`ws-sessions-bench-${index}`).digest('hex');
  return { apiKey: `wsb${String(index).padStart(6, '0')}${digest.slice(0, 9)}`, secret: digest.slice(10, 46) };
}
