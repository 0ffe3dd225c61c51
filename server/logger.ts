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

/** `destination`: where lines go (stdout unless given; tests read them back). */
export function createLogger(level: string, destination?: pino.DestinationStream) {
  const options: pino.LoggerOptions = {
    level,
    redact: { paths: redactPaths, censor: '[redacted]' },
    serializers: {
      req: (req: { method?: string; url?: string; ip?: string }) => ({ method: req.method, url: scrubUrl(req.url ?? ''), ip: req.ip }),
      res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
      err: pino.stdSerializers.err,
    },
  };
  return destination ? pino(options, destination) : pino(options);
}

type LineWriter = Record<'info' | 'warn' | 'error', (fields: object, message: string) => void>;

interface LogWindow {
  start: number;
  written: number;
  suppressed: number;
  level: keyof LineWriter;
  message: string;
}

/**
 * Lines that a caller can make as many of as it likes (refused requests, failing ones): at most
 * `linesPerWindow` per key and window are written, the rest are counted, and one line then says how
 * many were left out. Keys name a kind of line (status, method, route pattern), never a raw URL,
 * so their number stays bounded.
 */
export class BoundedLog {
  private readonly windows = new Map<string, LogWindow>();

  constructor(
    private readonly log: LineWriter,
    readonly options: { linesPerWindow: number; windowMs: number; now: () => number },
  ) {}

  write(level: keyof LineWriter, key: string, fields: object, message: string): void {
    const now = this.options.now();
    let window = this.windows.get(key);
    if (window && now - window.start >= this.options.windowMs) {
      this.close(key, window);
      window = undefined;
    }
    if (!window) {
      window = { start: now, written: 0, suppressed: 0, level, message };
      this.windows.set(key, window);
    }
    if (window.written < this.options.linesPerWindow) {
      window.written += 1;
      this.log[level](fields, message);
    } else {
      window.suppressed += 1;
    }
  }

  /** Closes the windows that have ended (all of them with `everything`), writing what each left out. */
  flush(everything = false): void {
    const now = this.options.now();
    for (const [key, window] of this.windows) if (everything || now - window.start >= this.options.windowMs) this.close(key, window);
  }

  private close(key: string, window: LogWindow): void {
    this.windows.delete(key);
    if (window.suppressed === 0) return;
    const seconds = Math.round(this.options.windowMs / 1000);
    this.log[window.level]({ key, suppressed: window.suppressed, windowSeconds: seconds }, `${window.suppressed} more "${window.message}" lines (${key}) within ${seconds} s were left out`);
  }
}
