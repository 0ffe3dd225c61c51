/** Texts of the guards of a strategy and of a customer (issue 29). */
export const guardsMessages = {
  title: 'Guards',
  fields: {
    maxAlertAgeS: 'Maximum alert age (seconds)',
    maxSlippageBps: 'Maximum slippage (basis points)',
    maxNotionalUsdt: 'Maximum notional per entry (USDT)',
    maxLeverage: 'Maximum leverage',
    maxOpenPositions: 'Maximum open positions',
    minFreeBalanceUsdt: 'Minimum free balance (USDT)',
    dailyLossLimitUsdt: 'Daily loss limit (USDT)',
    maxDrawdownPct: 'Maximum drawdown (%)',
    lossGuardResume: 'After a loss guard pauses copying',
  },
  help: {
    maxAlertAgeS: 'An entry alert stamped longer ago is answered, skipped and audited as late. Empty: the default, %{seconds} s.',
    maxSlippageBps: 'When the alert carries its price: an entry whose expected fill is further from it (100 bp = 1 %) is skipped for that customer. Empty: no limit.',
    maxNotionalUsdt: 'An entry worth more (quantity x price) is skipped. Empty: no limit.',
    maxLeverage: 'An entry of a strategy trading at a higher leverage is skipped. Empty: no limit.',
    maxOpenPositions: 'With this many positions open, an entry on another symbol or side is skipped. Empty: no limit.',
    minFreeBalanceUsdt: 'With less free USDT on the exchange, no new entry is placed (open positions keep their protection). Empty: none.',
    dailyLossLimitUsdt: 'Losses realized since 00:00 UTC (net of fees and funding) reaching this pause the copying; open positions keep their protection. Empty: no limit.',
    maxDrawdownPct: "The account's equity this far below its highest pauses the copying; open positions keep their protection. Empty: no limit.",
    lossGuardResume: 'Who ends a pause set by the daily loss limit or the maximum drawdown.',
  },
  resume: { staff: 'Paused until an admin resumes it', next_day: 'Paused until the next day (00:00 UTC)' },
  actions: { save: 'Save guards' },
  notifications: { saved: 'Guards saved.', failed: 'The guards could not be saved.' },
};
