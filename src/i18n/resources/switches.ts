/** Texts of the kill switches (issue 29): pause and close all of a strategy, a customer's copying, the platform. */
export const switchesMessages = {
  title: {
    strategy: 'Kill switch',
    customer: 'Copying',
    platform: 'Platform trading',
  },
  state: { running: 'Running', paused: 'Paused', pausedSince: 'Paused since %{at}' },
  guard: {
    until: 'Resumes by itself at %{at}.',
    staff: 'Stays paused until an admin resumes it.',
    byStaff: "The platform's staff paused it",
    customerTitle: 'Copying is paused: no new positions are opened for you.',
    protected: 'Your open positions keep their stop loss and take-profits.',
  },
  explain: {
    strategy: "While paused, this strategy's entry alerts are answered and skipped (audited \"strategy paused\"); close alerts still close, open positions keep their protection.",
    customer: 'While paused, no new entry is placed for this customer (audited "customer paused"); open positions keep their protection.',
    platform: 'While paused, every entry alert of every strategy is skipped (audited "platform paused"); close alerts still close, open positions keep their protection.',
  },
  actions: {
    pause: { strategy: 'Pause strategy', customer: 'Pause copying', platform: 'Pause platform' },
    resume: { strategy: 'Resume strategy', customer: 'Resume copying', platform: 'Resume platform' },
  },
  confirm: {
    pause: {
      strategy: 'Pause this strategy? Its entry alerts will place no orders until it is resumed.',
      customer: "Pause this customer's copying? No new entries will be placed for them until resumed.",
    },
    resume: {
      strategy: 'Resume this strategy? Its next entry alerts will place orders again.',
      customer: "Resume this customer's copying? Their next entries will be placed again.",
    },
    codeSent: 'A 6-digit code was mailed to you: type it to confirm.',
  },
  notifications: { paused: 'Paused.', resumed: 'Resumed.', failed: 'The switch could not be changed.' },
  closeAll: {
    action: 'Close all positions',
    confirm: {
      strategy: "Close every open position of this strategy at market, for every customer? Each is closed as by an admin; this cannot be undone.",
      customer: 'Close every open position of this customer at market, whatever the strategy? Each is closed as by an admin; this cannot be undone.',
    },
    asked: 'Close all asked %{at}:',
    progress: {
      nothing: 'no open position to close.',
      done: 'the position is closed. |||| all %{positions} positions are closed.',
      protected: '%{closed} of %{positions} closed, the rest still protected.',
      unprotected: '%{closed} of %{positions} closed; %{protected} of the rest protected so far.',
    },
    notifications: {
      asked: 'Closing one position. |||| Closing %{smart_count} positions.',
      nothing: 'Nothing to close: no open position.',
      failed: 'Close all could not be asked for.',
    },
  },
};
