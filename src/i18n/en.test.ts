import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { menus } from '../layout/menus';
import { en } from './en';

const srcDir = path.resolve(__dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [full] : [];
  });
}

function lookup(key: string): unknown {
  return key.split('.').reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), en);
}

describe('the English catalogue', () => {
  it('has a text for every literal translate() key in src/', () => {
    const missing: string[] = [];
    for (const file of sourceFiles(srcDir)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/translate\(\s*'((?:app|resources|ra)\.[^'$`]+)'/g)) {
        if (typeof lookup(match[1]!) !== 'string') missing.push(`${path.relative(srcDir, file)}: ${match[1]}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('has every menu label', () => {
    const labels = Object.values(menus).flatMap((entries) => entries.flatMap((entry) => [entry.label, ...(entry.kind === 'group' ? entry.items.map((item) => item.label) : [])]));
    expect(labels.filter((label) => typeof lookup(label) !== 'string')).toEqual([]);
  });

  it('keeps the spec texts verbatim', () => {
    expect(lookup('app.brand.tagline')).toBe('Your Fund | Your Account Your Profit');
    expect(lookup('app.notFound.message')).toBe('Sorry, we were unable to find that page');
    expect(lookup('app.unexpected.title')).toBe('Unexpected Application Error');
    expect(lookup('app.ui.blocking.customerBlocked')).toBe('Customer acccount successfully blocked.');
    expect(lookup('app.validation.passwordsDidntMatch')).toBe('Passwords didn`t match');
    expect(lookup('app.connect.authorise')).toBe('Authorise third-party data access so they can provide you with services.');
    expect(lookup('app.components.closed')).toBe('Closed');
  });
});
