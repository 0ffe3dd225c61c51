import { WebSocket } from 'ws';
import type { StreamFaults, StreamScope } from './faults';

/** Runs callbacks in the order they were queued, each no earlier than its delay (wall-clock timers). */
export class FrameQueue {
  private readonly queue: Array<{ at: number; run: () => void }> = [];
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  /** Runs at once when nothing waits and there is no delay; a later item never overtakes an earlier one. */
  add(delayMs: number, run: () => void): void {
    if (this.stopped) return;
    if (delayMs <= 0 && this.queue.length === 0) return run();
    const at = Math.max(Date.now() + delayMs, this.queue.at(-1)?.at ?? 0);
    this.queue.push({ at, run });
    this.arm();
  }

  /** Something still waits. */
  get pending(): boolean {
    return this.queue.length > 0;
  }

  /** Drops what waits: a frame still on the wire when the connection drops never arrives. */
  stop(): void {
    this.stopped = true;
    this.queue.length = 0;
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(): void {
    const head = this.queue[0];
    if (this.timer || !head) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, Math.max(0, head.at - Date.now()));
  }

  private flush(): void {
    const now = Date.now();
    while (!this.stopped && this.queue.length > 0 && (this.queue[0]?.at ?? 0) <= now) this.queue.shift()?.run();
    this.arm();
  }
}

/**
 * The way out of one private socket: the sandbox's one-way latency on every frame (in order), and the stream
 * faults of its scope. A delayed push holds the pushes after it, never the answers (the exchange's event
 * pipeline is late, its connection is not); duplicates follow their original; a stall loses everything.
 */
export class Outbox {
  private readonly wire = new FrameQueue();
  private readonly delayed = new FrameQueue();

  constructor(
    private readonly ws: WebSocket,
    private readonly faults: StreamFaults,
    private readonly latencyMs: () => number,
    private readonly scope: () => StreamScope,
    private readonly onWrite: () => void,
  ) {}

  /** An answer to the client's own frame (login, ping, subscribe). */
  answer(text: string): void {
    if (!this.faults.decide(this.scope(), false).stall) this.send(text);
  }

  /** A pushed event. */
  push(text: string): void {
    const decision = this.faults.decide(this.scope(), true);
    if (decision.stall) return;
    const copies = decision.duplicate ? 2 : 1;
    const send = () => {
      for (let copy = 0; copy < copies; copy += 1) this.send(text);
    };
    if (decision.delayMs > 0 || this.delayed.pending) this.delayed.add(decision.delayMs, send);
    else send();
  }

  close(): void {
    this.wire.stop();
    this.delayed.stop();
  }

  private send(text: string): void {
    this.wire.add(this.latencyMs(), () => this.write(text));
  }

  private write(text: string): void {
    if (this.ws.readyState !== WebSocket.OPEN) return;
    this.ws.send(text);
    this.onWrite();
  }
}
