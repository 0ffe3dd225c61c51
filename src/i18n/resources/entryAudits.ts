/** Texts of the Entry and Exit Order Audit lists (both read resources.entryAudits). */
export const entryAuditsMessages = {
  name: 'Entry audit |||| Entry audits',
  title: { entry: 'Entry Order Audit', exit: 'Exit Order Audit' },
  fields: {
    number: 'No.',
    transactionId: 'Transaction ID',
    customer: 'Customer',
    agent: 'Agent',
    symbol: 'Symbol',
    direction: 'Direction',
    entryType: 'Entry Type',
    exitType: 'Exit Type',
    date: 'Date',
    time: 'Time',
    message: 'Message',
  },
  filters: { current: 'Time', today: 'Today', all: 'All', exitType: 'Exit Type' },
  counts: { total: 'Total', errors: 'Errors' },
};
