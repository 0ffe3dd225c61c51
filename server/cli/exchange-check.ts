import { runExchangeCheck } from './exchange-check-command';

// npm run exchange-check -- --exchange bybit|bitget [--symbol BTCUSDT] [--mode oneway|hedge] [--leverage 5] [--sandbox]
// Test keys: BYBIT_TESTNET_KEY / BYBIT_TESTNET_SECRET, BITGET_DEMO_KEY / BITGET_DEMO_SECRET / BITGET_DEMO_PASSPHRASE.
process.exitCode = await runExchangeCheck(process.argv.slice(2), process.env, (line) => console.log(line));
