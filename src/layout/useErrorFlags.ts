import { useEffect, useState } from 'react';
import { NOTIFICATIONS_PATH } from '../../contract/api/audit';
import { NotificationType } from '../../contract/enums';
import { ui } from '../../contract/messages';
import { readToken } from '../dataProvider/token';
import type { ErrorFlag } from './menus';

export type ErrorFlags = Record<ErrorFlag, boolean>;

function socketUrl(): string {
  const url = new URL(NOTIFICATIONS_PATH, window.location.origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/** Reads `{ data: { type } }`: type 1 is an entry failure, type 2 an exit failure. */
export function flagOf(message: string): ErrorFlag | undefined {
  try {
    const type = (JSON.parse(message) as { data?: { type?: unknown } }).data?.type;
    if (type === NotificationType.EntryFailure) return 'entry';
    if (type === NotificationType.ExitFailure) return 'exit';
  } catch {
    // not JSON: not a notification
  }
  return undefined;
}

/**
 * The notifications websocket (spec 4): opened for admins and employees, the token sent as the
 * first message, closed on unmount. Both flags start false.
 */
export function useErrorFlags(enabled: boolean): ErrorFlags {
  const [flags, setFlags] = useState<ErrorFlags>({ entry: false, exit: false });
  useEffect(() => {
    const token = readToken();
    if (!enabled || !token || typeof WebSocket === 'undefined') return;
    const socket = new WebSocket(socketUrl());
    socket.onopen = () => {
      if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ token }));
      else console.warn(ui.other.websocketNotOpen);
    };
    socket.onmessage = (event: MessageEvent) => {
      const flag = typeof event.data === 'string' ? flagOf(event.data) : undefined;
      if (flag) setFlags((current) => (current[flag] ? current : { ...current, [flag]: true }));
    };
    return () => socket.close();
  }, [enabled]);
  return flags;
}
