import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { EXIT, runExchangeCheck } from './exchange-check-command';

async function run(argv: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; lines: string[] }> {
  const lines: string[] = [];
  const code = await runExchangeCheck(argv, env, (line) => lines.push(...line.split('\n')));
  return { code, lines };
}

/** The table's rows: step name, verdict, outcome. */
const rows = (lines: string[]) =>
  lines.map((line) => /^(\d+)\s+(.+?)\s{2,}(PASS|FAIL|DIFFERS)\s+(\S+)/.exec(line)).filter((m) => m !== null).map((m) => [m[2], m[3], m[4]]);

/** The strict sandbox answers every probe as the exchanges document it (its market rises 1% after the fill). */
const expectedRows = (exchange: 'bybit' | 'bitget') => [
  ['Market', 'PASS', 'ok'],
  ['Key check', 'PASS', 'ok'],
  ['Balance', 'PASS', 'ok'],
  ['Position mode', 'PASS', 'ok'],
  ['Leverage', 'PASS', 'ok'],
  ['Leverage again (unchanged)', 'PASS', 'ok'],
  ['Entry with stop loss', 'PASS', 'ok'],
  ['Entry fill (lookup by client id)', 'PASS', 'ok'],
  ['Switch position mode with a position open', 'PASS', 'invalid_request'],
  ['Take-profit legs', 'PASS', 'ok'],
  ['Take-profit lookup (at most two reads)', 'PASS', 'ok'],
  ['Trailing stop', 'PASS', 'ok'],
  // Bitget refuses a stop at the average open price (40833, the stricter reading of A1); Bybit checks the market only.
  ['Stop loss to entry', 'PASS', exchange === 'bitget' ? 'level_passed' : 'ok'],
  ['Stop loss one tick below entry', 'PASS', 'ok'],
  ['Stop loss again (unchanged)', 'PASS', 'ok'],
  ['Take-profit below the market (crossed)', 'PASS', 'trigger_crossed'],
  ['Stop loss above the market (passed)', 'PASS', 'level_passed'],
  ['Close', 'PASS', 'ok'],
  ['Close again (already flat)', 'PASS', 'ok'],
  ['Take-profit legs after the close', 'PASS', 'ok'],
];

const answers = {
  bybit: {
    entry: 'POST /v5/order/create -> HTTP 200 0 "OK"',
    unchangedStop: /^POST \/v5\/position\/trading-stop -> HTTP 200 34040 /,
    crossed: /^POST \/v5\/order\/create -> HTTP 200 110092 /,
    legsAfterClose: '2 of 2 were still open after the close, now cancelled',
  },
  bitget: {
    entry: 'POST /api/v2/mix/order/place-order -> HTTP 200 00000 "success"',
    unchangedStop: /^POST \/api\/v2\/mix\/order\/modify-tpsl-order -> HTTP 200 00000 /,
    crossed: /^POST \/api\/v2\/mix\/order\/place-tpsl-order -> HTTP 400 40915 /,
    legsAfterClose: 'cancelled with the position',
  },
} as const;

describe('npm run exchange-check', () => {
  it.each([
    ['bybit', 'BYBIT_TESTNET_KEY, BYBIT_TESTNET_SECRET are not set'],
    ['bitget', 'BITGET_DEMO_KEY, BITGET_DEMO_SECRET, BITGET_DEMO_PASSPHRASE are not set'],
  ])('%s without a test key says which variables it needs and exits 2', async (exchange, missing) => {
    const { code, lines } = await run(['--exchange', exchange], { BYBIT_TESTNET_KEY: exchange === 'bitget' ? 'a bybit key is not a bitget key' : '' });
    expect(code).toBe(EXIT.usage);
    expect(lines[0]).toContain(`in the environment: ${missing}.`);
    expect(lines[1]).toBe('Or run it on the built-in sandbox with --sandbox.');
  });

  it('names only what is missing', async () => {
    const { code, lines } = await run(['--exchange', 'bitget'], { BITGET_DEMO_KEY: 'k', BITGET_DEMO_SECRET: 's' });
    expect(code).toBe(EXIT.usage);
    expect(lines[0]).toMatch(/: BITGET_DEMO_PASSPHRASE is not set\.$/);
  });

  it.each([
    [['--exchange', 'kraken'], '--exchange must be bybit or bitget'],
    [[], '--exchange must be bybit or bitget'],
    [['--exchange', 'bybit', '--mode', 'netted'], '--mode must be oneway or hedge'],
    [['--exchange', 'bybit', '--leverage', '125'], '--leverage must be a whole number from 1 to 20'],
    [['--exchange', 'bybit', '--symbol', 'BTC/USD'], '--symbol must be a USDT perpetual such as BTCUSDT'],
    [['--exchange', 'bybit', '--live'], "Unknown option '--live'"],
  ])('%j is refused with the usage, exit 2', async (argv, message) => {
    const { code, lines } = await run(argv);
    expect(code).toBe(EXIT.usage);
    expect(lines[0]).toContain(message);
    expect(lines).toContain('Usage: npm run exchange-check -- --exchange bybit|bitget [--symbol BTCUSDT] [--mode oneway|hedge] [--leverage 5] [--sandbox]');
  });

  it('the script itself exits 2 without a key (no network)', async () => {
    const tsx = path.resolve('node_modules/.bin/tsx');
    const failed = await promisify(execFile)(tsx, ['server/cli/exchange-check.ts', '--exchange', 'bybit'], { env: { PATH: process.env.PATH } }).then(
      () => undefined,
      (error: { code?: number; stdout?: string }) => error,
    );
    expect(failed?.code).toBe(EXIT.usage);
    expect(failed?.stdout).toContain('BYBIT_TESTNET_KEY, BYBIT_TESTNET_SECRET are not set');
  }, 30_000);

  it.each(['bybit', 'bitget'] as const)('%s --sandbox: the whole round trip on the built-in sandbox, each step and the exchange answers printed', async (exchange) => {
    const { code, lines } = await run(['--exchange', exchange, '--sandbox']);
    expect(lines[0]).toMatch(new RegExp(`^exchange-check: ${exchange} BTCUSDT on the built-in sandbox \\(http://127\\.0\\.0\\.1:\\d+\\), oneway mode, 5x \\(its market rises 1% after the fill\\)$`));
    expect(rows(lines)).toEqual(expectedRows(exchange));
    const trimmed = lines.map((line) => line.trim());
    expect(trimmed).toContain(answers[exchange].entry);
    const stepLines = (name: string) => {
      const start = trimmed.findIndex((line) => line.includes(`${name}  `));
      const end = trimmed.findIndex((line, i) => i > start && /^\d+ /.test(line));
      return trimmed.slice(start + 1, end);
    };
    expect(stepLines('Stop loss again (unchanged)')).toEqual(expect.arrayContaining([expect.stringMatching(answers[exchange].unchangedStop)]));
    expect(stepLines('Take-profit below the market (crossed)')).toEqual([expect.stringMatching(answers[exchange].crossed)]);
    expect(lines.find((line) => line.startsWith('20  '))).toContain(answers[exchange].legsAfterClose);
    expect(lines).toContain('20 passed, 0 failed, 0 differ from the documents.');
    expect(code).toBe(EXIT.passed);
  }, 60_000);
});
