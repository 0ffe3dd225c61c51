import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineRoute } from '../../contract/route';
import { fileAnswerStream } from '../../server/http/file-answer';
import { registerFileRoute } from '../../server/http/route';
import { writeTempFile, type TempFile } from '../../server/lib/temp-file';
import { createTestContext, type TestContext } from '../helpers/test-app';

const fileRoute = defineRoute({
  method: 'POST', path: '/api/test/file', access: 'public', tag: 'test', summary: 'test',
  data: z.object({ fileBase64String: z.string(), fileName: z.enum(['report.xlsx']) }),
});

/** Several read chunks (192 KiB each) and a length that is not a multiple of 3, so the last base64 group is padded. */
const FILE_BYTES = 3 * 64 * 1024 * 5 + 2;

let ctx: TestContext;
let bytes: Buffer;
let fileName = 'report.xlsx';
let written: TempFile[] = [];

const tempFileOf = (content: Buffer) => writeTempFile('answer.bin', (file) => writeFile(file, content));

/** Resolves once the file's folder is gone (removal runs after the answer's stream has closed). */
async function removed(file: TempFile): Promise<boolean> {
  for (let i = 0; i < 100 && existsSync(path.dirname(file.path)); i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
  return !existsSync(path.dirname(file.path));
}

beforeAll(async () => {
  bytes = randomBytes(FILE_BYTES);
  ctx = await createTestContext({
    app: {
      extraPlugins: [
        (app) =>
          registerFileRoute(app, fileRoute, async () => {
            const file = await tempFileOf(bytes);
            written.push(file);
            return { file, fields: { fileName } };
          }),
      ],
    },
  });
});
afterAll(async () => ctx?.close());

describe('a file answer (the exports)', () => {
  it('streams the file into the envelope as base64 with an exact content-length, then removes the file', async () => {
    written = [];
    fileName = 'report.xlsx';
    const response = await ctx.app.inject({ method: 'POST', url: '/api/test/file' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(Number(response.headers['content-length'])).toBe(response.rawPayload.length);
    const answer = response.json() as { successful: boolean; data: { fileBase64String: string; fileName: string }; error: null };
    expect(Object.keys(answer)).toEqual(['successful', 'data', 'error']);
    expect(answer.successful).toBe(true);
    expect(answer.error).toBeNull();
    expect(answer.data.fileName).toBe('report.xlsx');
    expect(answer.data.fileBase64String).toBe(bytes.toString('base64'));
    expect(await removed(written[0]!)).toBe(true);
  });

  it('answers 500 with nothing of the file when the envelope breaks the contract, and removes the file', async () => {
    written = [];
    fileName = 'secret.txt';
    const result = await ctx.api('POST', '/api/test/file');
    fileName = 'report.xlsx';
    expect(result.status).toBe(500);
    expect(result.body).toEqual({ successful: false, data: null, error: { message: expect.any(String) } });
    expect(JSON.stringify(result.body)).not.toContain(bytes.subarray(0, 30).toString('base64'));
    expect(await removed(written[0]!)).toBe(true);
  });

  it('removes the file when the caller goes away in the middle of the answer', async () => {
    written = [];
    bytes = randomBytes(32 * 1024 * 1024);
    const url = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const received = await new Promise<number>((resolve, reject) => {
        const request = http.request(new URL('/api/test/file', url), { method: 'POST' }, (response) => {
          response.once('data', (chunk: Buffer) => {
            request.destroy();
            resolve(chunk.length);
          });
        });
        request.on('error', (error) => (request.destroyed ? undefined : reject(error)));
        request.end();
      });
      expect(received).toBeGreaterThan(0);
      expect(await removed(written[0]!)).toBe(true);
    } finally {
      bytes = randomBytes(FILE_BYTES);
    }
  });

  it('removes the file when the answer is dropped before its first read', async () => {
    const file = await tempFileOf(Buffer.from('never sent'));
    const { stream, contentLength } = fileAnswerStream(file, { head: '{"a":"', tail: '"}' });
    expect(contentLength).toBe(8 + 16);
    stream.destroy();
    expect(await removed(file)).toBe(true);
  });
});
