import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSecrets, loadMasterKey, maskKey, parseMasterKey } from './secrets';

describe('secrets', () => {
  const secrets = createSecrets(randomBytes(32));

  it('round-trips and uses a fresh IV every time', () => {
    const a = secrets.encrypt('my-api-secret', 'customer:1:apiSecret');
    const b = secrets.encrypt('my-api-secret', 'customer:1:apiSecret');
    expect(a).not.toBe(b);
    expect(a).not.toContain('my-api-secret');
    expect(secrets.decrypt(a, 'customer:1:apiSecret')).toBe('my-api-secret');
  });

  it('refuses a ciphertext moved to another row or field, or tampered with', () => {
    const sealed = secrets.encrypt('my-api-secret', 'customer:1:apiSecret');
    expect(() => secrets.decrypt(sealed, 'customer:2:apiSecret')).toThrow();
    expect(() => secrets.decrypt(sealed, 'customer:1:apiKey')).toThrow();
    const parts = sealed.split(':');
    const body = Buffer.from(parts[3]!, 'base64');
    body[0] = body[0]! ^ 1;
    expect(() => secrets.decrypt([...parts.slice(0, 3), body.toString('base64')].join(':'), 'customer:1:apiSecret')).toThrow();
  });

  it('refuses a key of the wrong size, accepts hex and base64', () => {
    expect(() => createSecrets(randomBytes(16))).toThrow(/32 bytes/);
    const key = randomBytes(32);
    expect(parseMasterKey(key.toString('hex')).equals(key)).toBe(true);
    expect(parseMasterKey(key.toString('base64')).equals(key)).toBe(true);
  });

  it('generates a private master key into the data directory once', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'copytrade-key-'));
    try {
      const first = loadMasterKey(undefined, dir);
      const second = loadMasterKey(undefined, dir);
      expect(first.equals(second)).toBe(true);
      expect(first).toHaveLength(32);
      expect(statSync(path.join(dir, 'master.key')).mode & 0o777).toBe(0o600);
      expect(readFileSync(path.join(dir, 'master.key'), 'utf8')).toBe(first.toString('base64'));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keys a MAC to the master key and the purpose: same input, same value; another key or purpose, another value', () => {
    const key = randomBytes(32);
    const mac = createSecrets(key).mac('one-time-code', '7:login:123456');
    expect(mac).toMatch(/^[0-9a-f]{64}$/);
    expect(createSecrets(key).mac('one-time-code', '7:login:123456')).toBe(mac);
    expect(createSecrets(key).mac('another-purpose', '7:login:123456')).not.toBe(mac);
    expect(createSecrets(randomBytes(32)).mac('one-time-code', '7:login:123456')).not.toBe(mac);
  });

  it('masks keys to their last four characters', () => {
    expect(maskKey('Wxyz')).toBe('****Wxyz');
    expect(maskKey(null)).toBeNull();
  });
});
