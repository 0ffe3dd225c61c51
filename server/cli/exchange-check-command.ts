import { parseArgs } from 'node:util';
import { startSandbox } from '../sandbox/index';
import { baseUrlOf, createExchangeAdapters, type ExchangeAccessMode } from '../trading/exchanges/index';
import { ExchangeRateLimiter } from '../trading/exchanges/rate-limiter';
import { recordingFetch } from '../trading/exchanges/recording-fetch';
import { runRoundTrip } from '../trading/exchanges/round-trip';
import type { StepResult } from '../trading/exchanges/round-trip-types';
import type { Credentials, ExchangeId, PositionModeName } from '../trading/exchanges/types';
import { createTickerPrices } from '../trading/prices';
import { DEFAULT_EGRESS } from '../config';
import { formatRoundTrip } from './exchange-check-table';

/** The test keys `npm run exchange-check` reads, per exchange (never a live key: testnet / demo only). */
export const TEST_KEY_VARIABLES: Record<ExchangeId, { apiKey: string; secret: string; passphrase?: string }> = {
  bybit: { apiKey: 'BYBIT_TESTNET_KEY', secret: 'BYBIT_TESTNET_SECRET' },
  bitget: { apiKey: 'BITGET_DEMO_KEY', secret: 'BITGET_DEMO_SECRET', passphrase: 'BITGET_DEMO_PASSPHRASE' },
};

export const EXIT = { passed: 0, failed: 1, usage: 2 } as const;

const USAGE = [
  'Usage: npm run exchange-check -- --exchange bybit|bitget [--symbol BTCUSDT] [--mode oneway|hedge] [--leverage 5] [--sandbox]',
  '  Runs one small round trip (mode and leverage, entry with stop, TP legs, trailing stop, stop to entry, close)',
  '  on Bybit testnet or Bitget demo trading with a test key from the environment, or with --sandbox on the',
  '  built-in sandbox, started in this process. It never trades on a live account.',
].join('\n');

interface Options {
  exchange: ExchangeId;
  symbol: string;
  mode: PositionModeName;
  leverage: number;
  sandbox: boolean;
}

function optionsOf(argv: string[]): Options | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { exchange: { type: 'string' }, symbol: { type: 'string' }, mode: { type: 'string' }, leverage: { type: 'string' }, sandbox: { type: 'boolean' } },
    }));
  } catch (error) {
    return (error as Error).message;
  }
  const exchange = values.exchange;
  if (exchange !== 'bybit' && exchange !== 'bitget') return '--exchange must be bybit or bitget';
  const mode = values.mode ?? 'oneway';
  if (mode !== 'oneway' && mode !== 'hedge') return '--mode must be oneway or hedge';
  const leverage = Number(values.leverage ?? 5);
  if (!Number.isInteger(leverage) || leverage < 1 || leverage > 20) return '--leverage must be a whole number from 1 to 20';
  const symbol = (values.symbol ?? 'BTCUSDT').toUpperCase();
  if (!/^[A-Z0-9]{2,20}USDT$/.test(symbol)) return '--symbol must be a USDT perpetual such as BTCUSDT';
  return { exchange, symbol, mode, leverage, sandbox: values.sandbox === true };
}

/** The test key from the environment, or the names of the variables that are missing. */
function testKeyOf(exchange: ExchangeId, env: NodeJS.ProcessEnv): Credentials | string[] {
  const names = TEST_KEY_VARIABLES[exchange];
  const wanted = [names.apiKey, names.secret, ...(names.passphrase ? [names.passphrase] : [])];
  const missing = wanted.filter((name) => !env[name]);
  if (missing.length) return missing;
  return { apiKey: env[names.apiKey]!, secret: env[names.secret]!, passphrase: names.passphrase ? env[names.passphrase] : undefined };
}

/** What the command prints (one line at a time) and its exit code. */
export async function runExchangeCheck(argv: string[], env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<number> {
  const options = optionsOf(argv);
  if (typeof options === 'string') {
    print(`${options}\n\n${USAGE}`);
    return EXIT.usage;
  }
  if (options.sandbox) return checkOnSandbox(options, print);
  const key = testKeyOf(options.exchange, env);
  if (Array.isArray(key)) {
    const where = options.exchange === 'bybit' ? 'Bybit testnet (testnet.bybit.com, API management)' : 'Bitget demo trading (bitget.com, Demo Trading, API management)';
    print(`exchange-check needs a test key of ${where} in the environment: ${key.join(', ')} ${key.length > 1 ? 'are' : 'is'} not set.`);
    print('Or run it on the built-in sandbox with --sandbox.');
    return EXIT.usage;
  }
  return check(options, 'testnet', undefined, key, print);
}

async function checkOnSandbox(options: Options, print: (line: string) => void): Promise<number> {
  const sandbox = await startSandbox({ randomWalk: false });
  try {
    const account = sandbox.control.createAccount({ exchange: options.exchange, balance: 10_000, positionMode: 'oneway', label: 'exchange-check' });
    // The sandbox's market rises 1% after the fill, so the stop moves to the entry are on the right side of it.
    const rise = (entryPrice: number) => void sandbox.control.setPrice(options.symbol, entryPrice * 1.01);
    return await check(options, 'sandbox', sandbox.url, { apiKey: account.apiKey, secret: account.secret, passphrase: account.passphrase || undefined }, print, rise);
  } finally {
    await sandbox.close();
  }
}

async function check(
  options: Options,
  mode: ExchangeAccessMode,
  sandboxUrl: string | undefined,
  credentials: Credentials,
  print: (line: string) => void,
  onFilled?: (entryPrice: number) => void,
): Promise<number> {
  const recorder = recordingFetch((url, init) => fetch(url, init));
  const limiter = new ExchangeRateLimiter();
  const adapter = createExchangeAdapters({ mode, sandboxUrl, fetchImplementation: recorder.fetch, limiter })[options.exchange];
  const where = mode === 'sandbox' ? `the built-in sandbox (${sandboxUrl})` : options.exchange === 'bybit' ? 'Bybit testnet' : 'Bitget demo trading';
  print(`exchange-check: ${options.exchange} ${options.symbol} on ${where}, ${options.mode} mode, ${options.leverage}x${onFilled ? ' (its market rises 1% after the fill)' : ''}`);
  const price = await createTickerPrices((exchange) => baseUrlOf(exchange, { mode, sandboxUrl }), DEFAULT_EGRESS, fetch).price(options.exchange, options.symbol);
  let results: StepResult[];
  try {
    results = await runRoundTrip({ adapter, credentials, symbol: options.symbol, mode: options.mode, leverage: options.leverage, price, recorder, onFilled });
  } catch (error) {
    print(`exchange-check could not start: ${error instanceof Error ? error.message : String(error)}`);
    return EXIT.failed;
  }
  for (const line of formatRoundTrip(results)) print(line);
  return results.some((result) => result.verdict === 'FAIL') ? EXIT.failed : EXIT.passed;
}
