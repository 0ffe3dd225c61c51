import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

const relative = (file: string) => path.relative(src, file).split(path.sep).join('/');

describe('the data layer is the only way to the API', () => {
  const files = sourceFiles(src);

  it('only src/dataProvider and src/authProvider import the HTTP client', () => {
    const offenders = files
      .filter((file) => !/^(dataProvider|authProvider)\//.test(relative(file)))
      .filter((file) => /from '[./]*\/?(dataProvider\/)?http'/.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it('no screen calls fetch itself', () => {
    const offenders = files
      .filter((file) => !/^(dataProvider|authProvider)\//.test(relative(file)))
      .filter((file) => /\bfetch\(/.test(readFileSync(file, 'utf8')))
      .map(relative);
    expect(offenders).toEqual([]);
  });

  it('the scan sees the app (a test that can fail)', () => {
    expect(files.map(relative)).toContain('resources/customers/CustomerList.tsx');
    expect(files.map(relative)).toContain('dataProvider/http.ts');
  });
});
