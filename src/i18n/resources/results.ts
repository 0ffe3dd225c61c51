/** Texts of a customer's results (issue 29). */
export const resultsMessages = {
  title: 'Results',
  explain: 'Realized PnL is net of trading fees and funding, as the exchange records them.',
  realized: 'Realized PnL to date',
  chart: { cumulative: 'Realized PnL (USDT)', wallet: 'Wallet (USDT)' },
  positions: 'Open positions',
  noPositions: 'No open position.',
  columns: { symbol: 'Symbol', side: 'Side', quantity: 'Quantity', entryPrice: 'Entry price', stopLoss: 'Stop loss', takeProfits: 'Take-profits' },
};
