import { WebSocket } from 'ws';

/** A bare WebSocket client for sandbox tests: every frame it receives, in order, and a way to wait for the next ones. */
export class RawSocket<F> {
  readonly frames: F[] = [];
  private waiters: Array<() => void> = [];
  closed = false;
  /** The close code the server sent (1006 when the connection was cut without one). */
  closeCode: number | undefined;

  protected constructor(
    readonly ws: WebSocket,
    parse: (text: string) => F,
  ) {
    ws.on('message', (data) => {
      this.frames.push(parse(data.toString()));
      this.wake();
    });
    ws.on('close', (code) => {
      this.closed = true;
      this.closeCode = code;
      this.wake();
    });
  }

  protected static connect<S>(url: string, make: (ws: WebSocket) => S, localAddress?: string): Promise<S> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, { perMessageDeflate: false, ...(localAddress ? { localAddress } : {}) });
      const socket = make(ws);
      ws.once('open', () => resolve(socket));
      ws.once('unexpected-response', (_request, response) => reject(new Error(`HTTP ${response.statusCode}`)));
      ws.once('error', reject);
    });
  }

  send(frame: unknown): void {
    this.ws.send(typeof frame === 'string' ? frame : JSON.stringify(frame));
  }

  /** Sends and waits for the frame that follows (frames are answered in order without faults). */
  async ask(frame: unknown): Promise<F> {
    const before = this.frames.length;
    this.send(frame);
    await this.until(() => this.frames.length > before);
    return this.frames[before] as F;
  }

  /** Waits until `ready()` holds, woken by every frame and the close; fails after `timeoutMs` (generous: a loaded machine; the condition ends the wait). */
  async until(ready: () => boolean, timeoutMs = 30_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!ready()) {
      if (Date.now() > deadline) throw new Error('no answer in time');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  close(): void {
    this.ws.terminate();
  }

  private wake(): void {
    const waiting = this.waiters;
    this.waiters = [];
    for (const wake of waiting) wake();
  }
}
