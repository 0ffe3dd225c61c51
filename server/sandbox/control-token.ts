import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { newToken, safeEqual } from '../lib/tokens';

/** The header every request to the sandbox control plane must carry. */
export const CONTROL_TOKEN_HEADER = 'x-sandbox-control';
/** Where the server writes a fresh control token at start when SANDBOX_CONTROL_TOKEN is unset. */
export const CONTROL_TOKEN_FILE = 'sandbox-control.token';

/**
 * The control plane lists every sandbox API key, funds accounts and sets prices that fire customers'
 * stops: it answers only requests carrying `X-Sandbox-Control: <token>`. A custom header also means
 * no web page can drive it from a browser (it would need a CORS preflight the sandbox never grants).
 */
export function controlTokenAccepted(expected: string, given: string | string[] | undefined): boolean {
  return typeof given === 'string' && safeEqual(given, expected);
}

/** SANDBOX_CONTROL_TOKEN, else a random token written to DATA_DIR/sandbox-control.token (mode 0600) now. */
export function resolveControlToken(env: NodeJS.ProcessEnv, dataDir: string): { token: string; file: string | undefined } {
  const configured = env.SANDBOX_CONTROL_TOKEN?.trim();
  if (configured) return { token: configured, file: undefined };
  const token = newToken();
  const file = path.join(dataDir, CONTROL_TOKEN_FILE);
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return { token, file };
}
