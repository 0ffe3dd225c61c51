import type pg from 'pg';
import type { FastifyBaseLogger } from 'fastify';
import { ChannelListener } from '../../db/channel-listener';
import { NOTIFICATION_CHANNEL, type StaffNotification } from '../../lib/notify';

/**
 * The process's one LISTEN connection on NOTIFICATION_CHANNEL. Notifications published while it
 * is reconnecting are not replayed: they only light the audit red dots, and the audit lists
 * themselves are the record.
 */
export class NotificationListener extends ChannelListener {
  constructor(config: pg.ClientConfig, deliver: (notification: StaffNotification) => void, log: FastifyBaseLogger) {
    super(config, NOTIFICATION_CHANNEL, {
      message: (payload) => {
        const notification = parse(payload);
        if (notification) deliver(notification);
      },
    }, log, 'notifications');
  }
}

function parse(payload: string): StaffNotification | undefined {
  try {
    const value = JSON.parse(payload) as Partial<StaffNotification>;
    if (typeof value.type !== 'number' || typeof value.message !== 'string') return undefined;
    return { type: value.type, message: value.message };
  } catch {
    return undefined;
  }
}
