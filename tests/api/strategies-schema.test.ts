import { describe, expect, it } from 'vitest';
import { strategyCreateBody, strategyUpdateBody } from '../../contract/api/strategy';
import { validation } from '../../contract/messages';

/** The web form parses its inputs with the same schema: strings from text fields, '' for empty ones. */
const formValues = {
  id: ' SOL7 ',
  symbol: 'solusdt.p',
  groups: [{ group: '1', investAmount: { type: '2', amount: '1.5' } }],
  entryDirection: '2',
  leverage: '20',
  positionMode: '2',
  takeProfitType: '1',
  takeProfitMode: '2',
  tp1: { targetLevel: '5', closeVolume: '33.3' },
  tp2: { targetLevel: '10', closeVolume: '33.3' },
  tp3: { targetLevel: '15', closeVolume: '' },
  stopLoss: { type: '1', amount: '7.5' },
  advanceStopLoss: false,
  trailingStop: true,
  positionActivation: { type: '1', amount: '20' },
  positionClose: { type: '1', amount: '2' },
  exclusiveCustomerId: '',
};

describe('strategy form schema (shared by the web form and the server)', () => {
  it('turns form strings into the normalised strategy, computing TP3 = 100 - TP1 - TP2', () => {
    expect(strategyCreateBody.parse(formValues)).toEqual({
      id: 'SOL7',
      symbol: 'SOLUSDT',
      groups: [{ group: 1, investAmount: { type: 2, amount: 1.5 } }],
      entryDirection: 2,
      leverage: 20,
      positionMode: 2,
      takeProfitType: 1,
      takeProfitMode: 2,
      tp1: { targetLevel: 5, closeVolume: 33.3 },
      tp2: { targetLevel: 10, closeVolume: 33.3 },
      tp3: { targetLevel: 15, closeVolume: 33.4 },
      stopLoss: { type: 1, amount: 7.5 },
      advanceStopLoss: false,
      trailingStop: true,
      positionActivation: { type: 1, amount: 20 },
      positionClose: { type: 1, amount: 2 },
      exclusiveCustomerId: null,
    });
  });

  it('reports every failing rule of an empty form at once, each with its spec message', () => {
    const result = strategyCreateBody.safeParse({});
    expect(result.success).toBe(false);
    const messages = result.error!.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    expect(messages).toEqual([
      `id: ${validation.strategyIdRequired}`,
      `symbol: ${validation.symbolRequired}`,
      `leverage: ${validation.leverageRequired}`,
      `positionMode: ${validation.selectOption}`,
      `entryDirection: ${validation.selectOption}`,
      `takeProfitType: ${validation.selectOption}`,
      `takeProfitMode: ${validation.selectOption}`,
      `tp1.targetLevel: ${validation.takeProfitRequired}`,
      `stopLoss.amount: ${validation.stopLossRequired}`,
      'groups: Choose at least one customer group',
    ]);
  });

  it('checks the update body with the same group and stop-loss rules', () => {
    const result = strategyUpdateBody.safeParse({ groups: [{ group: 4, investAmount: { type: 1, amount: 0 } }], stopLoss: { type: 3, amount: -1 } });
    expect(result.error!.issues.map((issue) => issue.message)).toEqual([validation.investRequired, 'Stop loss must be a positive number']);
  });
});
