/** Texts of the dashboards (under app.dashboards). */
export const dashboardMessages = {
  performanceOverview: 'Performance Overview',
  totalWallet: 'Total Wallet Amount (USDT)',
  totalCustomers: 'Total Customers',
  totalAgents: 'Total Agents',
  incomeReport: 'Monthly Income Report',
  income: 'Income (USDT)',
  year: 'Year',
  prevMonthAmountEarned: 'Amount Earned Last Month',
  totalAmountEarned: 'Total Amount Earned',
};
