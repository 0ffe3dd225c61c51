import { randomBytes } from 'node:crypto';
import type { ExchangeId } from './types';

export interface OAuthClient {
  exchange: ExchangeId;
  clientId: string;
  clientSecret: string;
  /** Accepted redirect URIs; empty or absent = any http(s) URI (sandbox convenience). */
  redirectUris?: string[];
  /** Display name on the authorize page. */
  name?: string;
}

/** The fixed sandbox OAuth clients (documented in README.md); options.oauthClients replaces them. */
export const defaultOAuthClients: OAuthClient[] = [
  { exchange: 'bybit', clientId: 'sandbox-bybit-client', clientSecret: 'sandbox-bybit-secret', name: 'Copytrade platform (sandbox)' },
  { exchange: 'bitget', clientId: 'sandbox-bitget-client', clientSecret: 'sandbox-bitget-secret', name: 'Copytrade platform (sandbox)' },
];

export const CODE_TTL_MS = 5 * 60 * 1000;
export const TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

interface Grant {
  client: OAuthClient;
  expiresAt: number;
}

interface Token extends Grant {
  /** Account created on the first key request, so repeating it gives the same key. */
  accountUid?: string;
}

/** Authorization codes (single use, short-lived) and bearer tokens of the quick-connect flows. */
export class OAuthStore {
  private readonly clients: OAuthClient[];
  private readonly codes = new Map<string, Grant>();
  private readonly tokens = new Map<string, Token>();

  constructor(
    private readonly now: () => number,
    clients: OAuthClient[] = defaultOAuthClients,
  ) {
    this.clients = clients.map((client) => ({ ...client }));
  }

  client(exchange: ExchangeId, clientId: string | undefined): OAuthClient | undefined {
    return this.clients.find((client) => client.exchange === exchange && client.clientId === clientId);
  }

  redirectAllowed(client: OAuthClient, uri: string): boolean {
    let parsed: URL;
    try {
      parsed = new URL(uri);
    } catch {
      return false;
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return false;
    return !client.redirectUris?.length || client.redirectUris.includes(uri);
  }

  issueCode(client: OAuthClient): string {
    const code = randomBytes(24).toString('base64url');
    this.codes.set(code, { client, expiresAt: this.now() + CODE_TTL_MS });
    return code;
  }

  /** Spends a code; answers undefined when unknown, expired, already used or issued to another client. */
  redeemCode(code: string, client: OAuthClient): string | undefined {
    const grant = this.codes.get(code);
    this.codes.delete(code);
    if (!grant || grant.client !== client || grant.expiresAt <= this.now()) return undefined;
    const token = randomBytes(32).toString('base64url');
    this.tokens.set(token, { client, expiresAt: this.now() + TOKEN_TTL_MS });
    return token;
  }

  token(value: string | undefined, exchange: ExchangeId): Token | undefined {
    const token = value === undefined ? undefined : this.tokens.get(value);
    if (!token || token.client.exchange !== exchange || token.expiresAt <= this.now()) return undefined;
    return token;
  }

  clear(): void {
    this.codes.clear();
    this.tokens.clear();
  }
}
