import pino from 'pino';

/** Never log a secret: passwords, codes, tokens, keys and the Authorization header are redacted. */
export const redactPaths = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.code',
  '*.token',
  '*.accessToken',
  '*.apiKey',
  '*.apiSecret',
  '*.secret',
  '*.passphrase',
  '*.masterKey',
];

/** Webhook tokens live in the path and OAuth codes in the query: neither reaches the log. */
export function scrubUrl(url: string): string {
  const [path = ''] = url.split('?');
  return path.replace(/^\/api\/webhook\/[^/]+/, '/api/webhook/[redacted]');
}

export function createLogger(level: string) {
  return pino({
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: scrubUrl(req.url ?? ''), ip: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  });
}
