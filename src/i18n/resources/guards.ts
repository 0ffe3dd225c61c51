/** Texts of a strategy's guards (issue 29). */
export const guardsMessages = {
  title: 'Guards',
  fields: { maxAlertAgeS: 'Maximum alert age (seconds)' },
  help: {
    maxAlertAgeS: 'An entry alert stamped longer ago is answered, skipped and audited as late. Empty: the default, %{seconds} s.',
  },
  actions: { save: 'Save guards' },
  notifications: { saved: 'Guards saved.', failed: 'The guards could not be saved.' },
};
