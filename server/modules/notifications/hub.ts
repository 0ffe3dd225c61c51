import type { StaffNotification } from '../../lib/notify';

/** What the hub and the route use of a `ws` socket (the package ships no types of its own). */
export interface StaffSocket {
  readonly readyState: number;
  readonly OPEN: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  once(event: 'close', listener: () => void): void;
  once(event: 'message', listener: (data: Buffer | ArrayBuffer | Buffer[]) => void): void;
}

/** The authenticated staff sockets of this process. */
export class SocketHub {
  private readonly sockets = new Map<StaffSocket, { sessionToken: string }>();

  add(socket: StaffSocket, sessionToken: string): void {
    this.sockets.set(socket, { sessionToken });
    socket.once('close', () => this.sockets.delete(socket));
  }

  get size(): number {
    return this.sockets.size;
  }

  entries(): Array<[StaffSocket, string]> {
    return [...this.sockets].map(([socket, { sessionToken }]) => [socket, sessionToken]);
  }

  broadcast(notification: StaffNotification): void {
    const frame = JSON.stringify({ data: { type: notification.type, message: notification.message } });
    for (const socket of this.sockets.keys()) {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    }
  }

  closeAll(code: number, reason: string): void {
    for (const socket of this.sockets.keys()) socket.close(code, reason);
    this.sockets.clear();
  }
}
