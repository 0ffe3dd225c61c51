import { i18nProvider } from '../i18n';

/** A route chunk that has not loaded after 120 seconds fails (spec 9), showing the error page. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export function withChunkTimeout<T>(load: Promise<T>, timeoutMs: number = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(i18nProvider.translate('app.unexpected.chunkTimeout', { seconds: timeoutMs / 1000 }))), timeoutMs);
  });
  return Promise.race([load, timeout]).finally(() => clearTimeout(timer));
}
