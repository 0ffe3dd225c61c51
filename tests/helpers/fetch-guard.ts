/**
 * The fetch every test gives ccxt and the OAuth client: it refuses any host other than 127.0.0.1,
 * so a missed base-URL override fails loudly instead of reaching a real exchange.
 */
export function guardedFetch(url: string | URL | Request, init?: RequestInit): Promise<Response> {
  const target = new URL(typeof url === 'string' ? url : url instanceof URL ? url.href : url.url);
  if (target.hostname !== '127.0.0.1') return Promise.reject(new Error(`BLOCKED outbound request to ${target.origin} (tests may only reach 127.0.0.1)`));
  return fetch(url, init);
}
