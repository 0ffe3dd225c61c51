import { describe, expect, it } from 'vitest';
import { ExchangeClock } from './exchange-clock';

describe('ExchangeClock', () => {
  it('places an answer on our clock by the closest bound any answer gave, never after our reading of it', () => {
    const clock = new ExchangeClock();
    // The exchange's clock runs 5,000 ms ahead of ours. Read 3 ms after it was stamped: bound 4,997, no closer.
    expect(clock.answeredAt('6003', 1_006)).toBe(1_006);
    // Read 40 ms late (a busy event loop): placed by the closer bound, at 1,054 rather than 1,090.
    expect(clock.answeredAt('6050', 1_090)).toBe(1_054);
    // A closer bound (read 1 ms after the stamp) moves every later answer earlier.
    expect(clock.answeredAt('6100', 1_101)).toBe(1_101);
    expect(clock.answeredAt('6200', 1_260)).toBe(1_202);
  });

  it("a pong's time gives the bound too: an alert's first answer, read late, is placed at its stamp", () => {
    const withPong = new ExchangeClock();
    // A pong stamped 6,000 (exchange) read at our 1,000 while idle: bound 5,000.
    expect(withPong.heard('6000', 1_000)).toBe(6_000);
    // Seconds later an alert's first answer, stamped 9,050, is read 40 ms late.
    expect(withPong.answeredAt('9050', 4_090)).toBe(4_051);
    // Without the pong that answer's own late reading is all there is to go by.
    expect(new ExchangeClock().answeredAt('9050', 4_090)).toBe(4_090);
    expect(withPong.heard(['6000'], 1_000)).toBeUndefined();
  });

  it('has no answer time without a Timenow', () => {
    const clock = new ExchangeClock();
    expect(clock.answeredAt(undefined, 1_000)).toBeUndefined();
    expect(clock.answeredAt('not a time', 1_000)).toBeUndefined();
    expect(clock.answeredAt(6_000, 1_000)).toBeUndefined();
  });

  it('forgets bounds after 10 s, so an exchange clock set back is followed', () => {
    const clock = new ExchangeClock();
    expect(clock.answeredAt('6001', 1_000)).toBe(1_000);
    // The exchange's clock went back 500 ms (offset 4,500): while the old bound (5,001) is kept, an answer
    // stamped at our 8,000 is placed 500 ms early, the error an exchange clock step makes for 10 s.
    expect(clock.answeredAt('12500', 8_005)).toBe(7_500);
    // 10 s on, that bound is gone: an answer stamped at our 11,050 and read 50 ms late is placed at 11,056.
    expect(clock.answeredAt('15500', 11_005)).toBe(11_005);
    expect(clock.answeredAt('15550', 11_100)).toBe(11_056);
  });

  it("tells the exchange's time now from the frames heard (what signatures and timestamps use); our own clock before any", () => {
    const clock = new ExchangeClock();
    const before = Date.now();
    expect(clock.now()).toBeGreaterThanOrEqual(before);
    expect(clock.now()).toBeLessThanOrEqual(Date.now());
    // A pong stamped one hour ahead of our wall clock, read now: the exchange runs an hour ahead.
    const hourAhead = Date.now() + 3_600_000;
    clock.heard(String(hourAhead), performance.now());
    expect(Math.abs(clock.now() - (Date.now() + 3_600_000))).toBeLessThan(50);
  });
});
