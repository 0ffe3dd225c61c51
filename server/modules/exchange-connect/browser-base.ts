import type { Config } from '../../config';

/** Names of this machine a browser may use for a server listening on 127.0.0.1. */
const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The origin the customer's browser uses for this server, from which quick connect builds both the
 * exchange page it opens and the address the exchange sends it back to (one base, so the consent
 * page's `form-action 'self'` never blocks the way back). PUBLIC_URL when set; otherwise the
 * loopback name the request came in on (localhost or 127.0.0.1 on PORT), else the default.
 */
export function browserBaseOf(config: Pick<Config, 'publicUrl' | 'publicUrlConfigured' | 'port'>, request: { protocol: string; host: string }): string {
  if (config.publicUrlConfigured) return config.publicUrl;
  let url: URL;
  try {
    url = new URL(`${request.protocol}://${request.host}`);
  } catch {
    return config.publicUrl;
  }
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  return LOOPBACK_NAMES.has(url.hostname) && port === config.port ? url.origin : config.publicUrl;
}

/**
 * Where the browser reaches the sandbox's pages: the sandbox mounted in this server (`npm start`,
 * 127.0.0.1:PORT/sandbox) under the browser's base; a sandbox elsewhere (SANDBOX_URL) as it is.
 */
export function browserSandboxUrl(sandboxUrl: string, config: Pick<Config, 'port'>, browserBase: string): string {
  const url = new URL(sandboxUrl);
  const mountedHere = LOOPBACK_NAMES.has(url.hostname) && Number(url.port) === config.port;
  return mountedHere ? `${browserBase}${url.pathname.replace(/\/+$/, '')}` : sandboxUrl;
}
