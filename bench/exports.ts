import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AccountType } from '../contract/enums';
import { loadActivityFixture } from './fixtures/activity';
import { loadCustomerFixture } from './fixtures/customers';
import { EMPTY_ROUTE, openBenchDatabase, staffHeaders } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';
import type { Benchmark } from './benchmark';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 100_000);

interface ExportTarget {
  name: string;
  label: string;
  path: string;
  body?: unknown;
  rows: number;
}

interface ExportResult {
  name: string;
  label: string;
  seconds: number;
  answerMb: number;
  rows: number;
  rssBeforeMb: number;
  peakRssMb: number;
}

/** POSTs and reads the answer as it arrives: only its length and the file are kept. */
function post(baseUrl: string, target: ExportTarget, headers: Record<string, string>): Promise<{ status: number; body: Buffer }> {
  const payload = JSON.stringify(target.body ?? {});
  return new Promise((resolve, reject) => {
    const request = http.request(new URL(target.path, baseUrl), { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    request.on('error', reject);
    request.end(payload);
  });
}

/** Rows of the first worksheet, read with exceljs's streaming reader (the file is checked, not trusted). */
async function countRows(file: Buffer): Promise<number> {
  let rows = 0;
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([file]), { worksheets: 'emit', sharedStrings: 'cache', styles: 'ignore', hyperlinks: 'ignore' });
  for await (const sheet of reader) {
    for await (const row of sheet) if (row) rows += 1;
    break;
  }
  return rows;
}

/** One export from a freshly started server process, so its peak is this export's alone. */
async function measure(start: () => Promise<ServerProcess>, target: ExportTarget, headers: Record<string, string>): Promise<ExportResult> {
  const server = await start();
  try {
    return await measureOn(server, target, headers);
  } finally {
    await server.stop();
  }
}

async function measureOn(server: ServerProcess, target: ExportTarget, headers: Record<string, string>): Promise<ExportResult> {
  await fetch(new URL(EMPTY_ROUTE, server.baseUrl)).then((r) => r.arrayBuffer());
  await new Promise((resolve) => setTimeout(resolve, 500));
  const rssBeforeMb = server.memory().rssMb;
  server.resetPeak();
  const t0 = performance.now();
  const answer = await post(server.baseUrl, target, headers);
  const seconds = (performance.now() - t0) / 1000;
  const { peakRssMb } = server.memory();
  const envelope = JSON.parse(answer.body.toString('utf8')) as { successful: boolean; data: { fileBase64String: string } | null };
  if (answer.status !== 200 || !envelope.successful || !envelope.data) throw new Error(`${target.name}: status ${answer.status}: ${answer.body.toString('utf8', 0, 300)}`);
  const rows = (await countRows(Buffer.from(envelope.data.fileBase64String, 'base64'))) - 1;
  if (rows !== target.rows) throw new Error(`${target.name}: ${rows} rows in the file, ${target.rows} expected`);
  return { name: target.name, label: target.label, seconds, answerMb: answer.body.length / 2 ** 20, rows, rssBeforeMb, peakRssMb };
}

async function run(): Promise<void> {
  const database = await openBenchDatabase('bench_exports');
  try {
    const t0 = performance.now();
    const customers = await loadCustomerFixture(database.handle.db, { customers: ROWS, agents: 200 });
    const activity = await loadActivityFixture(database.handle.db, { executionsPerOrder: 50, executions: ROWS, entryAudits: ROWS, exitAudits: ROWS });
    const live = await database.handle.pool.query<{ n: number }>('select count(*)::int as n from customers where account_live');
    const june = await database.handle.pool.query<{ entry: number; exit: number }>(
      `select (select count(*)::int from entry_audits where datetime_inserted >= '2025-06-01Z' and datetime_inserted < '2025-07-01Z') as entry,
              (select count(*)::int from exit_audits where datetime_inserted >= '2025-06-01Z' and datetime_inserted < '2025-07-01Z') as exit`,
    );
    console.log(`fixture: ${ROWS} customers (${live.rows[0]!.n} live), ${activity.entryAudits} entry and ${activity.exitAudits} exit audit rows in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    const admin = await staffHeaders(database.handle.db, AccountType.Admin, customers.countryIds[0]!);
    const masterKey = randomBytes(32).toString('base64');
    const start = () => startServerProcess({ databaseUrl: database.handle.url, dataDir: database.dataDir, masterKey });
    const month = { filter: [{ name: 'datetimeInserted', value: '2025-06' }] };
    const targets: ExportTarget[] = [
      { name: 'export-entry-month', label: `entry.xlsx, one month (${june.rows[0]!.entry} rows)`, path: '/api/error/export', body: month, rows: june.rows[0]!.entry },
      { name: 'export-exit-month', label: `exit.xlsx, one month (${june.rows[0]!.exit} rows)`, path: '/api/exit/export', body: month, rows: june.rows[0]!.exit },
      { name: 'export-customers', label: `customers.xlsx (${live.rows[0]!.n} rows)`, path: '/api/customer/export', rows: live.rows[0]!.n },
      { name: 'export-entry', label: `entry.xlsx (${activity.entryAudits} rows)`, path: '/api/error/export', rows: activity.entryAudits },
      { name: 'export-exit', label: `exit.xlsx (${activity.exitAudits} rows)`, path: '/api/exit/export', rows: activity.exitAudits },
    ];
    const results: ExportResult[] = [];
    for (const target of targets) results.push(await measure(start, target, admin));
    console.log('each export from a fresh server process; peak RSS is its VmHWM during the export (RSS before: after one request)');
    console.table(
      results.map((r) => ({
        export: r.label,
        rows: r.rows,
        seconds: r.seconds.toFixed(2),
        'answer MB': r.answerMb.toFixed(1),
        'RSS before MB': r.rssBeforeMb.toFixed(0),
        'peak RSS MB': r.peakRssMb.toFixed(0),
      })),
    );
    for (const r of results) console.log(`BENCH_RESULT ${JSON.stringify({ name: r.name, seconds: Math.round(r.seconds * 100) / 100, peakRssMb: Math.round(r.peakRssMb) })}`);
  } finally {
    await database.close();
  }
}

export const exportsBenchmark: Benchmark = {
  name: 'exports',
  description: 'customers.xlsx, entry.xlsx and exit.xlsx of 100,000 rows from a server in its own process: time and peak RSS',
  run,
};
