import { describe, expect, it } from 'vitest';
import { planTrades } from './history-plan';
import { DemoPrices } from './market';
import { demoStrategies } from './strategies';

const from = new Date('2024-05-01T00:00:00Z');
const to = new Date('2026-06-11T08:00:00Z');

describe('the demo trading plan', () => {
  it('is the same for the same seed, and another for another seed', () => {
    const plan = planTrades(from, to, 7);
    expect(planTrades(from, to, 7)).toEqual(plan);
    expect(planTrades(from, to, 8).map((t) => t.at.getTime())).not.toEqual(plan.map((t) => t.at.getTime()));
  });

  it('trades every strategy, oldest first, inside the window, with wins and losses in every year', () => {
    const plan = planTrades(from, to, 7);
    expect(plan.map((t) => t.at.getTime())).toEqual([...plan.map((t) => t.at.getTime())].sort((a, b) => a - b));
    expect(plan[0]!.at.getTime()).toBeGreaterThanOrEqual(from.getTime());
    expect(plan.at(-1)!.at.getTime()).toBeLessThan(to.getTime());
    expect(new Set(plan.map((t) => t.strategy.id))).toEqual(new Set(demoStrategies.map((s) => s.id)));
    expect(plan.filter((t) => t.strategy.via === 'manual' && t.outcome === 'closeSignal')).toEqual([]);
    for (const year of ['2024', '2025', '2026']) {
      const outcomes = new Set(plan.filter((t) => t.at.toISOString().startsWith(year)).map((t) => t.outcome));
      expect(outcomes).toContain('stopLoss');
      expect(outcomes).toContain('allTakeProfits');
    }
  });
});

describe('the demo price path', () => {
  it('gives the same prices whatever is asked first, on the tick grid', () => {
    const days = [0, 3.5, 400, 12, 899.9];
    const at = (d: number) => new Date(from.getTime() + d * 86_400_000);
    const forward = new DemoPrices(from, 2024);
    const first = days.map((d) => forward.at('BTCUSDT', at(d)));
    const backward = new DemoPrices(from, 2024);
    const second = [...days].reverse().map((d) => backward.at('BTCUSDT', at(d))).reverse();
    expect(second).toEqual(first);
    expect(first[0]).toBe(60000);
    expect(first.every((price) => Number.isInteger(Math.round(price * 10)) && Math.abs(price * 10 - Math.round(price * 10)) < 1e-6)).toBe(true);
    expect(new DemoPrices(from, 2025).at('BTCUSDT', at(400))).not.toBe(first[2]);
  });
});
