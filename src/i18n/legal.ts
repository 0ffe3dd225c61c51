/** Texts of /terms (14 numbered sections) and /privacy (ten sections), spec 1 and 2. */
export const legalMessages = {
  legal: {
    back: 'Back',
    lastModified: 'Last modified: %{date}',
  },
  terms: {
    title: 'Terms of Service',
    intro:
      'These Terms of Service govern your use of the copy-trading platform. By creating an account or using the service you agree to them. Please read them carefully.',
    sections: {
      s1: { title: 'Acceptance of the terms', body: 'By registering, connecting an exchange account or otherwise using the service you accept these terms. If you do not agree, do not use the service.' },
      s2: { title: 'Eligibility', body: 'You must be at least 18 years old and legally able to enter into a binding contract to use the service. By registering you confirm that you meet this minimum age.' },
      s3: { title: 'The service', body: 'The platform trades USDT perpetual futures automatically on the exchange account you connect, following the strategies defined by our trading team. Trades are placed through API keys you authorise.' },
      s4: { title: 'Registration and Registration IDs', body: 'Accounts are by invitation only. You register with a single-use Registration ID obtained from an agent. New accounts are reviewed and approved or rejected by management.' },
      s5: { title: 'Your exchange account and funds', body: 'Your funds stay on your own exchange account at all times. The platform has no direct access to your funds: the API keys it uses can trade but cannot withdraw or transfer.' },
      s6: { title: 'Fees and profit sharing', body: 'The platform charges a profit-sharing fee only on the part of your monthly return that exceeds the monthly return threshold. The percentage of the fee is agreed with you when your account is set up.' },
      s7: { title: 'No guarantee of returns', body: 'Trading crypto-asset derivatives carries a high risk of loss. Past performance does not predict future results. We give no guarantee of returns, and you may lose part or all of the funds on your exchange account.' },
      s8: { title: 'Agents', body: 'Agents introduce customers to the platform and act as intermediaries only. They are not employees or representatives of the platform and may not make promises on its behalf.' },
      s9: { title: 'Your obligations', body: 'You keep your login details and verification codes secret, give accurate information, and do not change or revoke the API keys in a way that disrupts open positions without telling us.' },
      s10: { title: 'Suspension and termination', body: 'We may suspend or terminate your account if you breach these terms, if we suspect fraud, or where the law or a regulator requires it. You may close your account at any time by contacting your agent or support.' },
      s11: { title: 'Limitation of liability', body: 'To the extent allowed by law, we are not liable for losses caused by market movements, exchange outages, network failures or events outside our reasonable control.' },
      s12: { title: 'Privacy', body: 'We process your personal data as described in our Privacy Policy.' },
      s13: { title: 'Changes to these terms', body: 'We may update these terms. We will tell you about material changes before they take effect; continuing to use the service means you accept the updated terms.' },
      s14: { title: 'Governing law', body: 'These terms are governed by the laws of [Country], and the courts of [Country] have exclusive jurisdiction over any dispute arising from them.' },
    },
  },
  privacy: {
    title: 'Privacy Policy',
    lastModifiedDate: 'September 10th, 2024',
    intro: 'This Privacy Policy explains which personal data the platform collects, why, and what rights you have over it.',
    sections: {
      s1: { title: 'Who we are', body: 'The platform operates the copy-trading service and is responsible for the personal data processed through it.' },
      s2: { title: 'Data we collect', body: 'Your name, email address, age, gender, country, mobile number, your Registration ID and agent, and the encrypted API credentials of the exchange account you connect.' },
      s3: { title: 'Trading data', body: 'Orders, positions, wallet balances and transaction counts read from your exchange account so the service can trade for you and report your results.' },
      s4: { title: 'How we use your data', body: 'To create and secure your account, approve your registration, trade on your exchange account, calculate fees, and contact you about your account.' },
      s5: { title: 'Security', body: 'Passwords are stored as one-way hashes, API secrets are encrypted at rest, sign-in requires a code sent by email, and the API keys we use cannot withdraw funds.' },
      s6: { title: 'Sharing', body: 'We share your data with your agent (your name, status and results), with the exchange you connect, and with authorities where the law requires it. We do not sell your data.' },
      s7: { title: 'Cookies', body: 'We use one cookie, accessToken, to keep you signed in for up to 30 days. We use no advertising or tracking cookies.' },
      s8: { title: 'Retention', body: 'We keep your data while your account is open and afterwards only as long as the law requires for financial records.' },
      s9: { title: 'Your rights', body: 'You may ask to see, correct or delete your personal data, and object to its processing, by contacting support or your agent.' },
      s10: { title: 'Changes to this policy', body: 'We may update this policy; the date at the top shows the last change.' },
    },
  },
};
