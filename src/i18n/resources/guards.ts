/** Texts of a strategy's guards (issue 29). */
export const guardsMessages = {
  title: 'Guards',
  fields: { maxAlertAgeS: 'Maximum alert age (seconds)', maxSlippageBps: 'Maximum slippage (basis points)' },
  help: {
    maxAlertAgeS: 'An entry alert stamped longer ago is answered, skipped and audited as late. Empty: the default, %{seconds} s.',
    maxSlippageBps: 'When the alert carries its price: an entry whose expected fill is further from it (100 bp = 1 %) is skipped for that customer. Empty: no limit.',
  },
  actions: { save: 'Save guards' },
  notifications: { saved: 'Guards saved.', failed: 'The guards could not be saved.' },
};
