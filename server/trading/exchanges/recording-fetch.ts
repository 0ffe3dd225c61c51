import type { FetchImplementation } from './ccxt-client';

/** One request ccxt sent and what the exchange answered (its own code and message when it gave one). */
export interface RecordedExchange {
  method: string;
  url: string;
  /** Path without the origin (and without a sandbox mount prefix before /v5 or /api). */
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
  /** Epoch ms when it left. */
  sentAt: number;
  status: number | undefined;
  /** Bybit retCode / Bitget code, as text. */
  code: string | undefined;
  message: string | undefined;
}

export interface RecordingFetch {
  fetch: FetchImplementation;
  readonly requests: RecordedExchange[];
  /** Requests recorded from now on. */
  since(): () => RecordedExchange[];
}

function headersOf(init: RequestInit | undefined): Record<string, string> {
  const result: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, key) => {
    result[key] = value;
  });
  return result;
}

function answerOf(text: string): { code: string | undefined; message: string | undefined } {
  try {
    const body = JSON.parse(text) as { retCode?: unknown; retMsg?: unknown; code?: unknown; msg?: unknown };
    const code = body.retCode ?? body.code;
    const message = body.retMsg ?? body.msg;
    return { code: code === undefined ? undefined : String(code), message: typeof message === 'string' ? message : undefined };
  } catch {
    return { code: undefined, message: text.slice(0, 120) || undefined };
  }
}

/**
 * A fetch that notes every exchange request and answer (URL, headers, body, the exchange's code and
 * message) on its way through `inner`: what `exchange-check` prints, and what tests assert on.
 */
export function recordingFetch(inner: FetchImplementation): RecordingFetch {
  const requests: RecordedExchange[] = [];
  const fetch: FetchImplementation = async (url, init) => {
    const parsed = new URL(url);
    const record: RecordedExchange = {
      method: (init?.method ?? 'GET').toUpperCase(),
      url,
      path: parsed.pathname.replace(/^.*?(?=\/(v5|api)\/)/, ''),
      headers: headersOf(init),
      body: typeof init?.body === 'string' ? init.body : undefined,
      sentAt: Date.now(),
      status: undefined,
      code: undefined,
      message: undefined,
    };
    requests.push(record);
    const response = await inner(url, init);
    record.status = response.status;
    Object.assign(record, answerOf(await response.clone().text()));
    return response;
  };
  return {
    fetch,
    requests,
    since() {
      const start = requests.length;
      return () => requests.slice(start);
    },
  };
}
