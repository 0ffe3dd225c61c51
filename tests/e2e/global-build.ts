import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const sources = ['src', 'contract', 'public', 'index.html', 'vite.config.ts'];

function newestSource(entry: string): number {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const stat = statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const child of readdirSync(full)) newest = Math.max(newest, newestSource(path.join(entry, child)));
  return newest;
}

/** Builds the web app once per run (`vite build` into dist/), unless dist/ is newer than every source. */
export default function buildWebApp(): void {
  const built = path.join(root, 'dist', 'index.html');
  const upToDate = existsSync(built) && statSync(built).mtimeMs > Math.max(...sources.map(newestSource));
  if (upToDate && process.env.E2E_FORCE_BUILD !== 'true') return;
  // vitest sets NODE_ENV=test, under which vite bundles React's development build (slower in every page).
  const env = { ...process.env, NODE_ENV: 'production' };
  const result = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) throw new Error('vite build failed: the e2e tests need the built web app');
}
