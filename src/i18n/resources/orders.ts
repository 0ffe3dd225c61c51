/** Texts of the 'Order & Alert' list. */
export const ordersMessages = {
  name: 'Order |||| Orders',
  title: 'Order & Alert',
  fields: {
    number: 'No.',
    id: 'Transaction ID',
    strategy: 'Strategy ID',
    symbol: 'Symbol',
    side: 'Side',
    entryType: 'Entry Type',
    status: 'Status',
    realizedPnl: 'Realized PnL',
    datetimeInserted: 'Date',
    toggle: 'Position',
    ownResult: 'My Result',
  },
  /** A customer's own result in an order (their position's state and PnL). */
  ownResults: { active: 'Active', win: 'Win', loss: 'Loss', failed: 'Not opened (failed)', skipped: 'Not opened' },
  filters: { symbol: 'Symbol', month: 'Month' },
  counts: { totalDeal: 'TotalDeal', win: 'Win', loss: 'Loss' },
  actions: { toggle: 'Close the position of order %{id}' },
  confirm: {
    title: 'Close this position?',
    content: 'Every customer position of this order closes at market price. This cannot be undone.',
    closing: 'Closing the positions at the exchanges…',
  },
};
