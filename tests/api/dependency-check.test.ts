import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { classifyAudit, classifySignatures, lockfileProblems, pinningProblems } from '../../scripts/check-dependencies';

const root = path.resolve(__dirname, '../..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const lock = JSON.parse(readFileSync(path.join(root, 'package-lock.json'), 'utf8'));
const copy = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('the dependency check of .ci/run', () => {
  it("passes this project's package.json and package-lock.json", () => {
    expect([...pinningProblems(manifest), ...lockfileProblems(manifest, lock)]).toEqual([]);
  });

  it('fails a range in package.json, a lockfile out of step with it, a package from elsewhere or without SHA-512', () => {
    const ranged = copy(manifest);
    ranged.dependencies.pg = '^8.23.1';
    expect(pinningProblems(ranged)).toEqual(["package.json dependencies.pg is '^8.23.1', not one pinned version"]);
    const aliased = copy(manifest);
    aliased.devDependencies['typescript-7'] = 'npm:typescript@^7.0.2';
    expect(pinningProblems(aliased)).toEqual(["package.json devDependencies.typescript-7 is 'npm:typescript@^7.0.2', not one pinned version"]);
    expect(lockfileProblems(ranged, lock)).toEqual(["dependencies.pg: package.json says '^8.23.1', package-lock.json '8.23.1'"]);
    const tampered = copy(lock);
    tampered.packages['node_modules/exceljs'].resolved = 'git+https://example.com/exceljs.git#abc';
    delete tampered.packages['node_modules/pg'].integrity;
    tampered.packages['node_modules/zod'].integrity = 'sha1-AAAA';
    tampered.packages['node_modules/local-thing'] = { link: true, resolved: 'vendor/local-thing' };
    expect(lockfileProblems(manifest, tampered).sort()).toEqual(
      [
        'node_modules/exceljs comes from git+https://example.com/exceljs.git#abc, not https://registry.npmjs.org/',
        'node_modules/local-thing comes from vendor/local-thing, not https://registry.npmjs.org/',
        'node_modules/local-thing is a link to a local folder',
        'node_modules/pg has no SHA-512 integrity',
        'node_modules/zod has no SHA-512 integrity',
      ].sort(),
    );
  });

  it("skips npm audit when the registry refuses it (this registry answers 405), and fails on a high finding when it answers", () => {
    const refused = 'npm warn audit 405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk\nnpm error audit endpoint returned an error';
    expect(classifyAudit(1, '{"message":"405 Method Not Allowed - POST https://registry.npmjs.org/-/npm/v1/security/advisories/bulk"}', refused)).toMatchObject({ kind: 'unavailable' });
    expect(classifyAudit(1, '', 'npm error code ENOTFOUND\nnpm error network request to https://registry.npmjs.org/-/npm/v1/security/advisories/bulk failed')).toMatchObject({ kind: 'unavailable' });
    expect(classifyAudit(0, '{"vulnerabilities":{},"metadata":{"vulnerabilities":{"high":0}}}', '')).toEqual({ kind: 'clean' });
    const found = JSON.stringify({ vulnerabilities: { tar: { severity: 'high' }, debug: { severity: 'low' } }, metadata: { vulnerabilities: { high: 1, low: 1 } } });
    expect(classifyAudit(1, found, '')).toEqual({ kind: 'findings', detail: 'tar (high); counts {"high":1,"low":1}' });
    expect(classifySignatures(1, '', 'npm error code ENOTFOUND\nnpm error network request to https://tuf-repo-cdn.sigstore.dev/15.root.json failed')).toMatchObject({ kind: 'unavailable' });
    expect(classifySignatures(1, '1 package has an invalid registry signature:\nleft-pad@1.3.0', '')).toMatchObject({ kind: 'findings' });
    expect(classifySignatures(0, 'audited 860 packages', '')).toEqual({ kind: 'clean' });
  });
});
