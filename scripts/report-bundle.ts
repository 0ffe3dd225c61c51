/**
 * After `vite build`: the gzip size of what the browser loads for the login page, and of the
 * whole back office, from dist/.vite/manifest.json. `npm run build` prints it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}
type Manifest = Record<string, ManifestChunk>;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** Every file a chunk loads before it runs: itself, its static imports (transitively) and their CSS. */
export function closure(manifest: Manifest, key: string, seen = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) return seen;
  seen.add(chunk.file);
  for (const css of chunk.css ?? []) seen.add(css);
  for (const imported of chunk.imports ?? []) closure(manifest, imported, seen);
  return seen;
}

export function gzipSize(files: Iterable<string>): number {
  let total = 0;
  for (const file of files) total += gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
  return total;
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} kB`;

function main(): void {
  const manifest = JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const entry = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entry) throw new Error('no entry chunk in the manifest');
  const shell = closure(manifest, entry);
  const login = closure(manifest, 'src/pages/login/CustomerLoginPage.tsx', new Set(shell));
  const backOffice = closure(manifest, 'src/layout/BackOffice.tsx', new Set(shell));
  const backOfficeOnly = [...backOffice].filter((file) => !login.has(file));
  // The 2FA code step (react-admin's useLogin) loads once the password is accepted.
  const codeStep = [...closure(manifest, 'src/pages/login/TwoFactorStep.tsx', new Set())].filter((file) => !login.has(file));
  const loginLoadsBackOffice = login.has(manifest['src/layout/BackOffice.tsx']?.file ?? '');
  console.log('\nBundle (gzip):');
  console.log(`  login route (/auth/login), everything loaded: ${kb(gzipSize(login))} in ${login.size} files`);
  console.log(`  back office, everything loaded:              ${kb(gzipSize(backOffice))} in ${backOffice.size} files`);
  console.log(`    of which not loaded by the login route:    ${kb(gzipSize(backOfficeOnly))}`);
  console.log(`  sign-in code step, loaded after the password: ${kb(gzipSize(codeStep))} (shared with the back office)`);
  console.log(`  login route loads back-office code:          ${loginLoadsBackOffice ? 'YES (regression)' : 'no'}`);
  if (loginLoadsBackOffice) process.exitCode = 1;
}

main();
