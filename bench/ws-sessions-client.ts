/**
 * Child process of `npm run bench -- ws-sessions`, so the RSS it reports is the client's own.
 * `sessions <url> <count> <addresses>`: warm one /v5/trade session per account from `addresses` loopback
 * addresses (127.0.0.2...), then one order.create per session. `ccxt <count>`: the cost of ccxt pro
 * Bybit instances (what per-account createOrderWs would need). Prints one `RESULT {json}` line.
 */
import ccxt from 'ccxt';
import { BybitTradeSessions } from '../server/trading/exchanges/bybit-ws/sessions';
import { benchCredentials } from './ws-sessions-keys';

const gc = (globalThis as { gc?: () => void }).gc;
const settle = async () => {
  for (let i = 0; i < 3; i += 1) {
    gc?.();
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

async function sessions(url: string, count: number, addressCount: number): Promise<Record<string, number>> {
  const accounts = Array.from({ length: count }, (_, i) => benchCredentials(i));
  await settle();
  const baseline = process.memoryUsage();
  const managers = Array.from({ length: addressCount }, (_, k) => {
    const address = `127.0.0.${k + 2}`;
    return new BybitTradeSessions({ url, egress: address, localAddress: address });
  });
  const perAddress = Math.ceil(count / addressCount);
  const started = performance.now();
  const warmed = await Promise.all(managers.map((manager, k) => manager.warm(accounts.slice(k * perAddress, (k + 1) * perAddress))));
  const warmMs = performance.now() - started;
  await settle();
  const warm = process.memoryUsage();
  const open = warmed.reduce((sum, stats) => sum + stats.open, 0);

  const orderStarted = performance.now();
  const answers = await Promise.all(
    accounts.map((account, i) => {
      const socket = managers[Math.floor(i / perAddress)]!.ready(account);
      if (!socket) return Promise.resolve(-1);
      const body = { category: 'linear', symbol: 'BTCUSDT', side: 'Buy', orderType: 'Market', qty: '0.001', orderLinkId: `wsb-${i}` };
      return socket.order('order.create', body, { 'X-BAPI-TIMESTAMP': String(Date.now()), 'X-BAPI-RECV-WINDOW': '5000' }, 10_000).then(
        (frame) => frame.retCode,
        () => -2,
      );
    }),
  );
  const ordersMs = performance.now() - orderStarted;
  for (const manager of managers) manager.close();
  return {
    count,
    addresses: addressCount,
    open,
    warmMs: Math.round(warmMs),
    baselineRssMb: mb(baseline.rss),
    warmRssMb: mb(warm.rss),
    perSessionKb: Math.round(((warm.rss - baseline.rss) / Math.max(open, 1) / 1024) * 10) / 10,
    heapPerSessionKb: Math.round(((warm.heapUsed - baseline.heapUsed) / Math.max(open, 1) / 1024) * 10) / 10,
    ordersAcked: answers.filter((code) => code === 0).length,
    ordersMs: Math.round(ordersMs),
  };
}

async function ccxtInstances(count: number): Promise<Record<string, number>> {
  await settle();
  const baseline = process.memoryUsage();
  const kept: unknown[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i += 1) {
    kept.push(new ccxt.pro.bybit({ enableRateLimit: false, options: { defaultType: 'swap', defaultSubType: 'linear', enableUnifiedAccount: true, enableUnifiedMargin: false } }));
  }
  const constructMs = (performance.now() - started) / count;
  await settle();
  const after = process.memoryUsage();
  return {
    count: kept.length,
    constructMs: Math.round(constructMs * 100) / 100,
    perInstanceMb: Math.round(((after.rss - baseline.rss) / count / 2 ** 20) * 1000) / 1000,
    heapPerInstanceMb: Math.round(((after.heapUsed - baseline.heapUsed) / count / 2 ** 20) * 1000) / 1000,
  };
}

const [mode, ...args] = process.argv.slice(2);
const result = mode === 'ccxt' ? await ccxtInstances(Number(args[0] ?? 200)) : await sessions(String(args[0]), Number(args[1] ?? 5000), Number(args[2] ?? 11));
console.log(`RESULT ${JSON.stringify(result)}`);
process.exit(0);
