import { sql } from 'drizzle-orm';
import { collectDefaultMetrics, Gauge, Registry } from 'prom-client';
import type { Deps } from '../deps';
import { engineMetrics } from '../trading/engine-metrics';
import type { ExchangeId } from '../trading/exchanges/types';
import { countByReason, SKIP_MESSAGES_READ, SKIP_WINDOW_MINUTES } from './skip-reasons';

type Counts = Record<string, number | string>;

/** What the database knows, in one statement; each part reads an index or a table of a few rows. */
interface DatabaseFigures {
  states: Counts | null;
  queued: number | string;
  closing: number | string;
  bans: Array<{ exchange: string; egress: string }> | null;
  findings: Counts | null;
  skips: { total: number | string; messages: Counts | null };
}

/**
 * Live executions by state and the unclaimed queue from the partial index of live rows
 * (`executions_open_idx`); the ended states (closed, failed, skipped) are not counted at scrape: a
 * count of every execution ever is a scan of the whole table.
 */
async function readFigures(db: Deps['db']): Promise<DatabaseFigures> {
  const result = await db.execute<{ figures: DatabaseFigures }>(sql`
    select json_build_object(
      'states', (select json_object_agg(s.state, s.n) from (select state, count(*) as n from executions where state in ('pending', 'open') group by state) s),
      'queued', (select count(*) from executions where state in ('pending', 'open') and state = 'pending' and claimed_by is null),
      'closing', (select count(*) from executions where state in ('pending', 'open') and close_requested_at is not null),
      'bans', (select json_agg(json_build_object('exchange', b.exchange, 'egress', b.egress)) from egress_bans b where b.until > now()),
      'findings', (select json_object_agg(f.kind, f.n) from (select kind, count(*) as n from reconciler_findings group by kind) f),
      'skips', (select json_build_object('total', coalesce(sum(r.n), 0),
          'messages', json_object_agg(r.message, r.n) filter (where r.rank <= ${SKIP_MESSAGES_READ})) from (
        select a.message, count(*) as n, row_number() over (order by count(*) desc) as rank from entry_audits a
        where a.datetime_inserted > now() - make_interval(mins => ${SKIP_WINDOW_MINUTES}) group by a.message) r)
    ) as figures`);
  return result.rows[0]!.figures;
}

function gauge(registry: Registry, name: string, help: string, labelNames: string[] = []): Gauge {
  return new Gauge({ name, help, labelNames, registers: [registry] });
}

function setAll(target: Gauge, label: string, counts: Counts | null, always: readonly string[] = []): void {
  target.reset();
  for (const key of always) target.set({ [label]: key }, 0);
  for (const [key, value] of Object.entries(counts ?? {})) target.set({ [label]: key }, Number(value));
}

const EXCHANGE_IDS: readonly ExchangeId[] = ['bybit', 'bitget'];

/** The gauges set at each scrape from the database and the exchange adapters (connections, request windows). */
function scrapedGauges(registry: Registry) {
  return {
    executions: gauge(registry, 'copytrade_executions', 'Live executions by state (pending: entry not placed yet; open: position held)', ['state']),
    queued: gauge(registry, 'copytrade_execution_queue_depth', 'Pending executions no dispatcher has claimed yet'),
    closing: gauge(registry, 'copytrade_executions_closing', 'Live executions whose close was asked for'),
    bans: gauge(registry, 'copytrade_address_bans', '1 while the exchange bans the outgoing address (shared through PostgreSQL)', ['exchange', 'address']),
    findings: gauge(registry, 'copytrade_reconciler_findings', 'Positions the reconciler reported to staff and still sees', ['kind']),
    skips: gauge(registry, 'copytrade_entry_skips_recent', `Entry audits of the last ${SKIP_WINDOW_MINUTES} minutes by reason (guards, kill switches, refusals)`, ['reason']),
    headroom: gauge(registry, 'copytrade_limiter_headroom', "Requests this process may still send in the address's per-IP window now", ['exchange', 'address']),
    waiting: gauge(registry, 'copytrade_limiter_waiting', "Requests waiting for the address's per-IP window", ['exchange', 'address']),
    sessions: gauge(registry, 'copytrade_trade_sessions_up', 'Order-entry sessions open (Bybit /v5/trade), of those wanted', ['exchange', 'kind']),
    streams: gauge(registry, 'copytrade_private_streams_up', 'Private account streams: wanted, open, synced (answering reads)', ['exchange', 'kind']),
  };
}

type ScrapedGauges = ReturnType<typeof scrapedGauges>;

function setAdapterGauges(deps: Pick<Deps, 'exchanges'>, g: ScrapedGauges): void {
  for (const target of [g.headroom, g.waiting, g.sessions, g.streams]) target.reset();
  for (const exchange of EXCHANGE_IDS) {
    const health = deps.exchanges.adapters[exchange].health?.();
    if (!health) continue;
    for (const address of health.addresses) {
      g.headroom.set({ exchange, address: address.egress }, Math.max(0, address.limit - address.inWindow));
      g.waiting.set({ exchange, address: address.egress }, address.waiting);
    }
    g.sessions.set({ exchange, kind: 'wanted' }, health.tradeSessions.wanted);
    g.sessions.set({ exchange, kind: 'open' }, health.tradeSessions.open);
    for (const kind of ['wanted', 'open', 'synced'] as const) g.streams.set({ exchange, kind }, health.privateStreams[kind]);
  }
}

function setDatabaseGauges(figures: DatabaseFigures, g: ScrapedGauges): void {
  setAll(g.executions, 'state', figures.states, ['pending', 'open']);
  g.queued.set(Number(figures.queued));
  g.closing.set(Number(figures.closing));
  g.bans.reset();
  for (const ban of figures.bans ?? []) g.bans.set({ exchange: ban.exchange, address: ban.egress }, 1);
  setAll(g.findings, 'kind', figures.findings);
  setAll(g.skips, 'reason', countByReason(figures.skips.messages, figures.skips.total));
}

/**
 * The registry of one app: the process's default metrics, the engine's latency histograms and
 * reconciler counter (counted as things happen), and gauges read at each scrape.
 */
export function createMetrics(deps: Pick<Deps, 'db' | 'exchanges'>): { contentType: string; scrape(): Promise<string> } {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'copytrade_process_' });
  registry.registerMetric(engineMetrics.entryLatency.first);
  registry.registerMetric(engineMetrics.entryLatency.last);
  registry.registerMetric(engineMetrics.reconcilerRepairs);
  const gauges = scrapedGauges(registry);
  return {
    contentType: registry.contentType,
    async scrape() {
      engineMetrics.entryLatency.settle();
      setDatabaseGauges(await readFigures(deps.db), gauges);
      setAdapterGauges(deps, gauges);
      return registry.metrics();
    },
  };
}
