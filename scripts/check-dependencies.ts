import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The dependency check of CI (`.ci/run`), made of what works against this project's registry:
 * - every dependency in package.json is pinned to one version;
 * - package-lock.json matches package.json, and every package in it comes from the npm registry
 *   with a SHA-512 integrity (no git, file or other URLs; `npm ci` then checks every tarball
 *   against it);
 * - the installed tree is exactly the lockfile's (`npm ls --all`);
 * - `npm audit` (advisories) and `npm audit signatures` when the registry answers them. The
 *   registry this project uses refuses both (405 for the advisory endpoint, no signing keys): that
 *   is reported and skipped, never a failure; a finding of high severity or an invalid signature is.
 */

const REGISTRY = 'https://registry.npmjs.org/';
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;
/** One version, or one version of a registry package under another name (`npm:typescript@7.0.2`). */
const PINNED_SPEC = /^(?:npm:(?:@[a-z0-9._-]+\/)?[a-z0-9._-]+@)?\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  overrides?: Record<string, string>;
}

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

interface Lockfile {
  lockfileVersion?: number;
  packages?: Record<string, LockEntry>;
}

/** Dependencies given as ranges, tags or URLs instead of one version. */
export function pinningProblems(manifest: PackageJson): string[] {
  const problems: string[] = [];
  for (const section of ['dependencies', 'devDependencies', 'overrides'] as const) {
    for (const [name, spec] of Object.entries(manifest[section] ?? {})) {
      if (!PINNED_SPEC.test(spec)) problems.push(`package.json ${section}.${name} is '${spec}', not one pinned version`);
    }
  }
  return problems;
}

/** Where the lockfile disagrees with package.json, or holds a package not fetched from the registry with its SHA-512. */
export function lockfileProblems(manifest: PackageJson, lock: Lockfile): string[] {
  const problems: string[] = [];
  if (lock.lockfileVersion !== 3) problems.push(`package-lock.json has lockfileVersion ${lock.lockfileVersion}, expected 3`);
  const packages = lock.packages ?? {};
  const root = packages[''] ?? {};
  for (const section of ['dependencies', 'devDependencies'] as const) {
    const wanted = manifest[section] ?? {};
    const locked = root[section] ?? {};
    for (const name of new Set([...Object.keys(wanted), ...Object.keys(locked)])) {
      if (wanted[name] !== locked[name]) problems.push(`${section}.${name}: package.json says '${wanted[name] ?? 'nothing'}', package-lock.json '${locked[name] ?? 'nothing'}'`);
    }
  }
  for (const [location, entry] of Object.entries(packages)) {
    if (location === '') continue;
    if (entry.link) problems.push(`${location} is a link to a local folder`);
    else if (!entry.integrity?.startsWith('sha512-')) problems.push(`${location} has no SHA-512 integrity`);
    if (entry.resolved !== undefined && !entry.resolved.startsWith(REGISTRY)) problems.push(`${location} comes from ${entry.resolved}, not ${REGISTRY}`);
    if (entry.version !== undefined && !EXACT_VERSION.test(entry.version)) problems.push(`${location} has version '${entry.version}'`);
  }
  return problems;
}

export type RemoteCheck = { kind: 'clean' } | { kind: 'unavailable'; reason: string } | { kind: 'findings'; detail: string };

const UNAVAILABLE = /\b(405|404)\b.*(Method Not Allowed|Not Found|advisories|keys)|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|network request to .* failed|audit endpoint returned an error/i;

/** How an `npm audit --json` run came out: clean, refused or unreachable (skipped), or findings. */
export function classifyAudit(status: number | null, stdout: string, stderr: string): RemoteCheck {
  const text = `${stdout}\n${stderr}`;
  if (UNAVAILABLE.test(text)) return { kind: 'unavailable', reason: firstLine(text, UNAVAILABLE) };
  if (status === 0) return { kind: 'clean' };
  try {
    const report = JSON.parse(stdout) as { metadata?: { vulnerabilities?: Record<string, number> }; vulnerabilities?: Record<string, { severity: string }> };
    const counts = report.metadata?.vulnerabilities ?? {};
    const serious = Object.entries(report.vulnerabilities ?? {}).filter(([, v]) => v.severity === 'high' || v.severity === 'critical').map(([name, v]) => `${name} (${v.severity})`);
    if (serious.length > 0) return { kind: 'findings', detail: `${serious.join(', ')}; counts ${JSON.stringify(counts)}` };
    return { kind: 'clean' };
  } catch {
    return { kind: 'unavailable', reason: firstLine(text, /\S/) || `npm audit exited with ${status}` };
  }
}

/** How an `npm audit signatures` run came out. */
export function classifySignatures(status: number | null, stdout: string, stderr: string): RemoteCheck {
  const text = `${stdout}\n${stderr}`;
  if (status === 0) return { kind: 'clean' };
  if (/invalid (registry )?signature|missing registry signature|invalid attestation|tampered/i.test(text)) return { kind: 'findings', detail: firstLine(text, /invalid|missing|tampered/i) };
  return { kind: 'unavailable', reason: firstLine(text, /\S/) || `npm audit signatures exited with ${status}` };
}

function firstLine(text: string, pattern: RegExp): string {
  return text.split('\n').find((line) => pattern.test(line))?.trim().slice(0, 200) ?? '';
}

function npm(args: string[], cwd: string) {
  const run = spawnSync('npm', args, { cwd, encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
  return { status: run.status, stdout: run.stdout ?? '', stderr: `${run.stderr ?? ''}${run.error ? String(run.error) : ''}` };
}

function report(name: string, check: RemoteCheck): boolean {
  if (check.kind === 'clean') console.log(`ok    ${name}`);
  else if (check.kind === 'unavailable') console.log(`skip  ${name}: the registry does not answer it here (${check.reason})`);
  else console.log(`FAIL  ${name}: ${check.detail}`);
  return check.kind !== 'findings';
}

function main(root: string): number {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as PackageJson;
  const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8')) as Lockfile;
  const local = [...pinningProblems(manifest), ...lockfileProblems(manifest, lock)];
  for (const problem of local) console.log(`FAIL  ${problem}`);
  if (local.length === 0) console.log(`ok    package.json pinned; package-lock.json matches it, ${Object.keys(lock.packages ?? {}).length - 1} packages from the registry with SHA-512 integrity`);
  const tree = npm(['ls', '--all', '--json'], root);
  const treeOk = tree.status === 0;
  console.log(treeOk ? 'ok    npm ls --all: the installed tree is the lockfile' : `FAIL  npm ls --all: ${firstLine(tree.stderr, /\S/) || 'missing, invalid or extraneous packages'}`);
  // One try each: a refusal is reported at once instead of after minutes of retries.
  const once = ['--fetch-retries=0', '--fetch-timeout=15000'];
  const audit = npm(['audit', '--omit=dev', '--audit-level=high', '--json', ...once], root);
  const auditOk = report('npm audit (advisories, production dependencies)', classifyAudit(audit.status, audit.stdout, audit.stderr));
  const signatures = npm(['audit', 'signatures', ...once], root);
  const signaturesOk = report('npm audit signatures', classifySignatures(signatures.status, signatures.stdout, signatures.stderr));
  return local.length === 0 && treeOk && auditOk && signaturesOk ? 0 : 1;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'));
}
