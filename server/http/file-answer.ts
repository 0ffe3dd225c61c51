import { randomBytes } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { TempFile } from '../lib/temp-file';
import { ok } from './envelope';

/** The JSON of the answer before and after the base64 of the file (its opening and closing quotes included). */
export interface EnvelopeAround {
  head: string;
  tail: string;
}

/**
 * The route's own serializer writes the envelope with a stand-in for the file, so the answer is
 * checked against the contract like any other; the file's base64 then takes the stand-in's place.
 */
export function envelopeAround(reply: FastifyReply, fields: Record<string, string>): EnvelopeAround {
  const standIn = `file-${randomBytes(12).toString('hex')}`;
  const json = reply.serialize(ok({ fileBase64String: standIn, ...fields }));
  const [head, tail, ...more] = typeof json === 'string' ? json.split(standIn) : [];
  if (head === undefined || tail === undefined || more.length > 0) throw new Error('The file answer could not place its file in the envelope');
  return { head, tail };
}

/** Length of the base64 of `bytes` bytes (with padding). */
export function base64Length(bytes: number): number {
  return 4 * Math.ceil(bytes / 3);
}

/** Read size: a multiple of 3, so every chunk but the last encodes without padding. */
const CHUNK_BYTES = 3 * 64 * 1024;

/** The envelope's head, the file as base64 read chunk by chunk, the tail. */
async function* base64Chunks(file: TempFile, envelope: EnvelopeAround): AsyncGenerator<Buffer> {
  yield Buffer.from(envelope.head);
  let carry: Buffer = Buffer.alloc(0);
  for await (const chunk of createReadStream(file.path, { highWaterMark: CHUNK_BYTES })) {
    const bytes: Buffer = carry.length ? Buffer.concat([carry, chunk as Buffer]) : (chunk as Buffer);
    const whole = bytes.length - (bytes.length % 3);
    yield Buffer.from(bytes.subarray(0, whole).toString('base64'));
    carry = bytes.subarray(whole);
  }
  yield Buffer.from(carry.toString('base64') + envelope.tail);
}

/**
 * The answer as a stream of `contentLength` bytes, read from disk a chunk at a time. The file is
 * removed when the stream closes: sent whole, failed, or destroyed because the caller went away
 * (even before its first read).
 */
export function fileAnswerStream(file: TempFile, envelope: EnvelopeAround): { stream: Readable; contentLength: number } {
  const stream = Readable.from(base64Chunks(file, envelope), { objectMode: false });
  stream.once('close', () => void file.remove());
  return { stream, contentLength: Buffer.byteLength(envelope.head) + base64Length(file.bytes) + Buffer.byteLength(envelope.tail) };
}
