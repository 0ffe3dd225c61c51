/** Texts of the Account Health Check page. */
export const accountHealthMessages = {
  name: 'Account health',
  title: 'Account Health Check',
  fields: {
    number: 'No.',
    name: 'Customer',
    exchange: 'Exchange',
    apiKey: 'API Key',
    wallet: 'Wallet Amount',
    keyValid: 'Key works',
    canTrade: 'Can trade',
    canWithdraw: 'Can withdraw',
    lastSyncAt: 'Last sync',
    lastError: 'Last error',
  },
  problemsOnly: 'Problems only',
  sync: 'Sync now',
  synced: 'Checked %{checked} accounts, %{failed} failed.',
  yes: 'Yes',
  no: 'No',
  unknown: 'Not checked',
};
