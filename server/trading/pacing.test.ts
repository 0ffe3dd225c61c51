import { describe, expect, it } from 'vitest';
import { createPacer } from './pacing';

const rate = () => 100;
const slack = () => 6_000;

describe('pacer: entries and protection share an exchange budget', () => {
  it('gives protection its turn unless the entries still waiting need the whole budget to meet their deadline', async () => {
    let clock = 1_000_000;
    const pacer = createPacer(rate, () => clock, slack);
    const turn = await pacer.protection('bybit');
    expect(turn).toBeTypeOf('function');
    turn!();
    // 1,000 entries at 100/s need 12.5 s (with the 25% margin) plus 6 s of slack: a deadline 30 s away leaves room.
    pacer.setPressure('bybit', { pending: 1_000, earliestDeadline: clock + 30_000 });
    const shared = await pacer.protection('bybit');
    expect(shared).toBeTypeOf('function');
    shared!();
    // 2,000 need 25 s + 6 s: past the deadline, so protection steps aside; the other exchange is not affected.
    pacer.setPressure('bybit', { pending: 2_000, earliestDeadline: clock + 30_000 });
    expect(await pacer.protection('bybit')).toBeNull();
    expect(await pacer.protection('bitget')).toBeTypeOf('function');
    clock += 20_000;
    pacer.setPressure('bybit', { pending: 0, earliestDeadline: null });
    expect(await pacer.protection('bybit')).toBeTypeOf('function');
  });

  it('lets a few entries and a few protections through at a time, first come first served', async () => {
    const pacer = createPacer(rate, Date.now, slack);
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    const entry = (id: number) =>
      pacer.entry('bitget', async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        order.push(id);
      });
    await Promise.all(Array.from({ length: 100 }, (_, id) => entry(id)));
    // 100 requests/s: 40 entries (0.4 s of the budget) in flight at most.
    expect(most).toBe(40);
    expect(order.slice(0, 5)).toEqual([0, 1, 2, 3, 4]);

    const turns = await Promise.all(Array.from({ length: 20 }, () => pacer.protection('bitget')));
    expect(turns.every((turn) => typeof turn === 'function')).toBe(true);
    let twentyFirst = false;
    const waiting = pacer.protection('bitget').then((turn) => {
      twentyFirst = true;
      turn?.();
    });
    // Its turn is decided without timers: once the turns queued now have run (a turn of the event loop), it would have come.
    await new Promise((resolve) => setImmediate(resolve));
    expect(twentyFirst).toBe(false);
    turns[0]!();
    await waiting;
    expect(twentyFirst).toBe(true);
    for (const turn of turns.slice(1)) turn!();
  });

  it('paces entries over an order-entry socket by the socket rate, apart from the REST entries', async () => {
    const pacer = createPacer(rate, Date.now, slack, () => 1_000);
    const most = { rest: 0, websocket: 0 };
    const inFlight = { rest: 0, websocket: 0 };
    const entry = (channel: 'rest' | 'websocket') =>
      pacer.entry(
        'bybit',
        async () => {
          inFlight[channel] += 1;
          most[channel] = Math.max(most[channel], inFlight[channel]);
          await new Promise((resolve) => setTimeout(resolve, 5));
          inFlight[channel] -= 1;
        },
        channel,
      );
    await Promise.all([...Array.from({ length: 500 }, () => entry('websocket')), ...Array.from({ length: 100 }, () => entry('rest'))]);
    // 1,000 orders/s over the socket: 400 in flight (0.4 s of it); REST keeps its 40, not taken by the socket's entries.
    expect(most).toEqual({ websocket: 400, rest: 40 });
  });

  it('counts the entries still waiting at the rate of the channel they have been leaving by', async () => {
    const clock = 1_000_000;
    const pacer = createPacer(rate, () => clock, slack, () => 1_000);
    const sent = (channel: 'rest' | 'websocket', count: number) => Promise.all(Array.from({ length: count }, () => pacer.entry('bybit', async () => undefined, channel)));
    // No entry sent yet: they are counted at the REST rate (4,000 at 100/s: 50 s + 6 s, past the deadline).
    pacer.setPressure('bybit', { pending: 4_000, earliestDeadline: clock + 30_000 });
    expect(await pacer.protection('bybit')).toBeNull();
    // Entries leaving over the order-entry socket do not take the REST budget: 4,000 at 1,000/s need 5 s + 6 s.
    await sent('websocket', 10);
    const turn = await pacer.protection('bybit');
    expect(turn).toBeTypeOf('function');
    turn!();
    // Half of the recent entries fell back to REST (sessions down): 2,000 of them at 100/s (27.5 s + 6 s) do not fit.
    await sent('rest', 10);
    expect(await pacer.protection('bybit')).toBeNull();
  });
});
