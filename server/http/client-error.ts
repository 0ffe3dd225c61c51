import type { Socket } from 'node:net';
import { server as messages } from '../../contract/messages';
import { API_ANSWER_HEADERS } from './error-handler';
import { fail } from './envelope';

/** Node's parser errors for what never became a request, and the envelope each answers. */
function answerOf(code: string | undefined): { status: number; reason: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, reason: 'Request Header Fields Too Large', message: messages.headersTooLarge };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, reason: 'Request Timeout', message: messages.requestTimeout };
  return { status: 400, reason: 'Bad Request', message: messages.unreadableRequest };
}

/**
 * Fastify's `clientErrorHandler`: a request Node's HTTP parser refuses (a control character in a
 * header, headers over 16 KiB, a broken request line) reaches no route and no hook, so the
 * envelope is written to the socket here, with the headers every API answer carries.
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed || !socket.writable) return;
  const { status, reason, message } = answerOf(error.code);
  const body = JSON.stringify(fail(message));
  const headers = [
    `HTTP/1.1 ${status} ${reason}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(API_ANSWER_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  socket.end(`${headers.join('\r\n')}\r\n\r\n${body}`);
}
