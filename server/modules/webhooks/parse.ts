import { isStorableText } from '../../../contract/common';
import { WEBHOOK_JSON_LIMITS } from '../../../contract/api/webhook';
import { EntryDirection } from '../../../contract/enums';
import type { AlertInput } from '../../trading/intake';

/** What a TradingView alert asks for, read from a JSON or a plain-text body. */
export interface ParsedAlert extends AlertInput {
  /** The words that decided the action, for the signal record. */
  actionText: string | null;
  ticker: string | null;
}

export type ParseResult = { ok: true; alert: ParsedAlert } | { ok: false; reason: string };

const OPEN_WORDS = new Set(['open', 'entry', 'enter']);
const CLOSE_WORDS = new Set(['close', 'exit', 'flat']);
const LONG_WORDS = new Set(['long', 'buy']);
const SHORT_WORDS = new Set(['short', 'sell']);
const ACTION_WORDS = [...OPEN_WORDS, ...CLOSE_WORDS, ...LONG_WORDS, ...SHORT_WORDS];

const ACTION_KEYS = ['action', 'strategy.order.action', 'order_action', 'orderAction', 'side', 'signal'];
const POSITION_KEYS = ['market_position', 'marketPosition', 'strategy.market_position', 'position'];
const ALERT_ID_KEYS = ['alert_id', 'alertId', 'id', 'alert'];
const TIME_KEYS = ['timestamp', 'time', 'timenow'];
const TICKER_KEYS = ['ticker', 'symbol'];
const PRICE_KEYS = ['price', 'close'];

/** BINANCE:BTCUSDT.P, BTCUSDT.P, BTC/USDT:USDT and btcusdt all read as BTCUSDT. */
export function normalizeTicker(raw: string): string {
  let ticker = raw.trim().toUpperCase();
  if (ticker.includes(':') && !ticker.includes('/')) ticker = ticker.slice(ticker.lastIndexOf(':') + 1);
  ticker = ticker.replace(/:USDT$/, '').replace(/\.P$/, '').replace(/PERP$/, '').replace(/[/_-]/g, '');
  return ticker;
}

/**
 * Open or close for a strategy trading in `direction`: `open` (or, in plain text, no action) opens; `close`, `exit` and
 * TradingView's `market_position: flat` close; `buy`/`long` open a long strategy and close a short one
 * (TradingView's {{strategy.order.action}}), `sell`/`short` the reverse.
 */
function decide(
  words: { action: string | null; position: string | null },
  direction: EntryDirection,
  source: AlertSource,
): { action: 'open' | 'close' } | { error: string } {
  const position = words.position?.toLowerCase() ?? null;
  if (position !== null && position !== '' && !['flat', 'long', 'short'].includes(position)) {
    return { error: `market_position ${quote(words.position)} is not one of flat, long, short` };
  }
  if (position === 'flat') return { action: 'close' };
  const action = words.action?.toLowerCase() || position || null;
  // A JSON alert must say what it wants; a plain-text message without an action opens.
  if (action === null && source === 'json') return { error: NO_ACTION_IN_JSON };
  if (action === null || OPEN_WORDS.has(action)) return { action: 'open' };
  if (CLOSE_WORDS.has(action)) return { action: 'close' };
  if (LONG_WORDS.has(action)) return { action: direction === EntryDirection.Long ? 'open' : 'close' };
  if (SHORT_WORDS.has(action)) return { action: direction === EntryDirection.Short ? 'open' : 'close' };
  return { error: `action ${quote(words.action)} is not one of ${ACTION_WORDS.join(', ')}` };
}

type AlertSource = 'json' | 'text';

const NO_ACTION_IN_JSON =
  'the JSON alert names no action; add "action" (open, long, short, buy, sell, close, exit, flat), TradingView\'s "strategy.order.action" or "market_position"';

/** A value of the alert quoted in a message, cut short: the message lands in the entry audit. */
function quote(value: unknown): string {
  const text = String(value);
  return `'${text.length > 60 ? `${text.slice(0, 60)}…` : text}'`;
}

/** Whether every text inside a parsed JSON value can be stored (keys included). */
function storableJson(value: unknown): boolean {
  if (typeof value === 'string') return isStorableText(value);
  if (Array.isArray(value)) return value.every(storableJson);
  if (value !== null && typeof value === 'object') return Object.entries(value).every(([key, inner]) => isStorableText(key) && storableJson(inner));
  return true;
}

const UNSTORABLE_ALERT = 'the alert contains a NUL character or broken Unicode, which cannot be stored; send plain text or JSON'

function pick(record: Record<string, unknown>, keys: string[]): unknown {
  for (const key of keys) {
    if (key in record && record[key] !== null && record[key] !== undefined) return record[key];
    const nested = key.split('.');
    if (nested.length > 1) {
      let value: unknown = record;
      for (const part of nested) value = value && typeof value === 'object' ? (value as Record<string, unknown>)[part] : undefined;
      if (value !== undefined && value !== null) return value;
    }
  }
  return undefined;
}

function readTime(value: unknown): Date | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  const numeric = typeof value === 'number' ? value : /^\d+$/.test(String(value)) ? Number(value) : NaN;
  const date = Number.isFinite(numeric) ? new Date(numeric < 1e12 ? numeric * 1000 : numeric) : new Date(String(value));
  return Number.isNaN(date.getTime()) ? 'invalid' : date;
}

function fromRecord(record: Record<string, unknown>, direction: EntryDirection, source: AlertSource): ParseResult {
  const action = pick(record, ACTION_KEYS);
  const position = pick(record, POSITION_KEYS);
  for (const [name, value] of [['action', action], ['market_position', position]] as const) {
    if (value !== undefined && typeof value !== 'string') return { ok: false, reason: `${name} must be text, e.g. "close"` };
  }
  const decided = decide({ action: (action as string | undefined) ?? null, position: (position as string | undefined) ?? null }, direction, source);
  if ('error' in decided) return { ok: false, reason: decided.error };
  const time = readTime(pick(record, TIME_KEYS));
  if (time === 'invalid') return { ok: false, reason: 'timestamp is not a date (use TradingView {{timenow}} or epoch milliseconds)' };
  const ticker = pick(record, TICKER_KEYS);
  if (ticker !== undefined && typeof ticker !== 'string') return { ok: false, reason: 'ticker must be text, e.g. "BTCUSDT.P"' };
  const alertId = pick(record, ALERT_ID_KEYS);
  if (alertId !== undefined && typeof alertId !== 'string' && typeof alertId !== 'number') return { ok: false, reason: 'alert id must be text or a number' };
  const rawPrice = pick(record, PRICE_KEYS);
  const price = rawPrice === undefined ? null : Number(rawPrice);
  if (price !== null && !(price > 0 && Number.isFinite(price))) return { ok: false, reason: `price ${quote(rawPrice)} is not a positive number` };
  return {
    ok: true,
    alert: {
      action: decided.action,
      actionText: [action, position].filter((v) => typeof v === 'string' && v !== '').join(' ') || null,
      alertId: alertId === undefined ? null : String(alertId).slice(0, 200),
      timestamp: time,
      ticker: typeof ticker === 'string' ? ticker : null,
      price,
    },
  };
}

/** Plain text: a single action word, or `key=value` / `key: value` pairs, or words such as "BTCUSDT.P buy". */
function fromText(text: string, direction: EntryDirection): ParseResult {
  const record: Record<string, unknown> = {};
  const words = text.split(/[\s,;]+/).filter(Boolean);
  const loose: string[] = [];
  for (let i = 0; i < words.length; i += 1) {
    const word = words[i]!;
    const pair = /^([A-Za-z_.]+)[=:](.+)$/.exec(word);
    if (pair) record[pair[1]!] = pair[2];
    else if (/^[A-Za-z_.]+:$/.test(word) && i + 1 < words.length) record[word.slice(0, -1)] = words[(i += 1)];
    else loose.push(word);
  }
  for (const word of loose) {
    const lower = word.toLowerCase();
    if (ACTION_WORDS.includes(lower) && record.action === undefined) record.action = lower;
    else if (/^[A-Z0-9:]+(\.P)?$/i.test(word) && /USDT?/i.test(word) && record.ticker === undefined) record.ticker = word;
    else return { ok: false, reason: `could not understand ${quote(word)} in the alert text; send JSON such as {"action":"close"} or a word such as close` };
  }
  return fromRecord(record, direction, 'text');
}

const FLAT_OBJECT_HINT = 'a TradingView alert is a flat object such as {"action":"open"}';

/**
 * Depth and number of keys and values of a JSON text, counted in one pass over its characters
 * (brackets inside strings do not count), so a hostile body is refused before JSON.parse builds it
 * and before anything walks it recursively. Answers the reason to refuse it, if any.
 */
export function jsonShapeProblem(text: string, limits: { maxDepth: number; maxItems: number } = WEBHOOK_JSON_LIMITS): string | undefined {
  let depth = 0;
  let items = 0;
  let inString = false;
  let previous = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (inString) {
      if (char === '\\') i += 1;
      else if (char === '"') inString = false;
      continue;
    }
    if (char === ' ' || char === '\n' || char === '\r' || char === '\t') continue;
    if (char === '"') inString = true;
    if (char === '{' || char === '[') depth += 1;
    else if (char === '}' || char === ']') depth -= 1;
    // A key or value starts: a string, a container, or a number or literal after a separator.
    if (char === '"' || char === '{' || char === '[' || (/[-0-9tfn]/.test(char) && (previous === '' || ':[,'.includes(previous)))) items += 1;
    if (depth > limits.maxDepth) return `the JSON is nested deeper than ${limits.maxDepth} levels; ${FLAT_OBJECT_HINT}`;
    if (items > limits.maxItems) return `the JSON holds more than ${limits.maxItems} keys and values; ${FLAT_OBJECT_HINT}`;
    previous = char;
  }
  return undefined;
}

/** Reads an alert body (JSON or text, TradingView sends text/plain when the message is not JSON). */
export function parseAlert(body: string, direction: EntryDirection): ParseResult {
  const text = body.trim();
  if (!isStorableText(body)) return { ok: false, reason: UNSTORABLE_ALERT };
  if (text === '') return { ok: false, reason: 'the alert is empty; send a message such as open or close, or JSON such as {"action":"open"}' };
  if (text.startsWith('{') || text.startsWith('[')) {
    const shapeProblem = jsonShapeProblem(text);
    if (shapeProblem) return { ok: false, reason: shapeProblem };
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return { ok: false, reason: 'the body looks like JSON but is not valid JSON' };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { ok: false, reason: 'the JSON body must be an object such as {"action":"close"}' };
    if (!storableJson(parsed)) return { ok: false, reason: UNSTORABLE_ALERT };
    return fromRecord(parsed as Record<string, unknown>, direction, 'json');
  }
  return fromText(text, direction);
}
