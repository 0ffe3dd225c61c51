import type { Secrets } from './secrets';
import type { Credentials } from '../trading/exchanges/types';

export interface CredentialInput {
  apiKey: string;
  apiSecret: string;
  passphrase?: string | null | undefined;
}

export interface CredentialColumns {
  apiKeyEnc: string;
  apiKeyLast4: string;
  apiSecretEnc: string;
  passphraseEnc: string | null;
}

/** Each ciphertext is bound to its account and field, so it cannot be moved to another row. */
const binding = (accountId: number, field: 'apiKey' | 'apiSecret' | 'passphrase') => `customer:${accountId}:${field}`;

export function encryptCredentials(secrets: Secrets, accountId: number, input: CredentialInput): CredentialColumns {
  return {
    apiKeyEnc: secrets.encrypt(input.apiKey, binding(accountId, 'apiKey')),
    apiKeyLast4: input.apiKey.slice(-4),
    apiSecretEnc: secrets.encrypt(input.apiSecret, binding(accountId, 'apiSecret')),
    passphraseEnc: input.passphrase ? secrets.encrypt(input.passphrase, binding(accountId, 'passphrase')) : null,
  };
}

/** Credentials for the exchange adapters; undefined when the customer has no key stored. */
export function decryptCredentials(
  secrets: Secrets,
  row: { accountId: number; apiKeyEnc: string | null; apiSecretEnc: string | null; passphraseEnc: string | null },
): Credentials | undefined {
  if (!row.apiKeyEnc || !row.apiSecretEnc) return undefined;
  return {
    apiKey: secrets.decrypt(row.apiKeyEnc, binding(row.accountId, 'apiKey')),
    secret: secrets.decrypt(row.apiSecretEnc, binding(row.accountId, 'apiSecret')),
    passphrase: row.passphraseEnc ? secrets.decrypt(row.passphraseEnc, binding(row.accountId, 'passphrase')) : undefined,
  };
}
