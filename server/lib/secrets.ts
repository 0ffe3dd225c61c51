import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const VERSION = 'v1';

/**
 * AES-256-GCM for exchange credentials at rest. Each ciphertext has its own random IV and is bound
 * to its row through the additional authenticated data (e.g. `customer:12:apiSecret`), so a value
 * copied into another row or field does not decrypt.
 */
export interface Secrets {
  encrypt(plaintext: string, binding: string): string;
  decrypt(ciphertext: string, binding: string): string;
  /**
   * HMAC-SHA-256 (hex) of `value` under a key derived from the master key for `purpose` (HKDF). What
   * the database keeps of short secrets such as 6-digit codes: without the key, trying every
   * possible value against a copy of the database finds nothing.
   */
  mac(purpose: string, value: string): string;
}

export function createSecrets(key: Buffer): Secrets {
  if (key.length !== 32) throw new Error('MASTER_KEY must be 32 bytes (64 hex characters or 44 base64 characters)');
  const macKeys = new Map<string, Buffer>();
  const macKeyOf = (purpose: string) => {
    let derived = macKeys.get(purpose);
    if (!derived) macKeys.set(purpose, (derived = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), `copytrade mac: ${purpose}`, 32))));
    return derived;
  };
  return {
    mac: (purpose, value) => createHmac('sha256', macKeyOf(purpose)).update(value, 'utf8').digest('hex'),
    encrypt(plaintext, binding) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(binding, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      const tag = cipher.getAuthTag();
      return [VERSION, iv.toString('base64'), tag.toString('base64'), body.toString('base64')].join(':');
    },
    decrypt(ciphertext, binding) {
      const [version, iv, tag, body] = ciphertext.split(':');
      if (version !== VERSION || !iv || !tag || body === undefined) throw new Error('Unreadable ciphertext');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64'));
      decipher.setAAD(Buffer.from(binding, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64')), decipher.final()]).toString('utf8');
    },
  };
}

export function parseMasterKey(value: string): Buffer {
  const trimmed = value.trim();
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) return Buffer.from(trimmed, 'hex');
  return Buffer.from(trimmed, 'base64');
}

/** MASTER_KEY when given; otherwise DATA_DIR/master.key, generated on first start (mode 0600). */
export function loadMasterKey(masterKey: string | undefined, dataDir: string): Buffer {
  if (masterKey) return parseMasterKey(masterKey);
  const file = path.join(dataDir, 'master.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  }
  return parseMasterKey(readFileSync(file, 'utf8'));
}

/** The last four characters shown in place of an API key. */
export function maskKey(last4: string | null | undefined): string | null {
  return last4 ? `****${last4}` : null;
}
