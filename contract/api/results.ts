import { z } from 'zod';
import { idParams } from '../common';
import { defineRoute, ErrorStatus } from '../route';

/**
 * A customer's results (issue 29): their realized PnL per UTC day (net of fees and funding, as the exchange's
 * records give it) with the running total and the wallet it implies (today's wallet less what was realized
 * after that day), and the positions the platform holds for them now with their stop loss and take-profits.
 */
export const resultsDay = z.object({
  day: z.string(),
  realizedPnl: z.number(),
  cumulative: z.number(),
  wallet: z.number(),
});

export const openPosition = z.object({
  executionId: z.number().int(),
  orderId: z.number().int(),
  strategyId: z.string(),
  symbol: z.string(),
  side: z.number().int(),
  /** What is left open of the execution. */
  quantity: z.number(),
  entryPrice: z.number().nullable(),
  stopLoss: z.number().nullable(),
  takeProfits: z.array(z.number()),
  openedAt: z.string(),
});

export const customerResults = z.object({
  days: z.array(resultsDay),
  openPositions: z.array(openPosition),
});
export type CustomerResults = z.infer<typeof customerResults>;

export const resultsRoutes = {
  customer: defineRoute({
    method: 'GET', path: '/api/customer/:id/results', access: ['staffRead', 'customerOwn'], tag: 'customers',
    summary: "The customer's realized PnL per day with its running total, and their open positions with stop loss and take-profits (a customer reads their own)",
    params: idParams, data: customerResults, errors: [ErrorStatus.NotFound], ownRecordsOnly: true,
  }),
};
