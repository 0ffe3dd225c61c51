import { earningsRoutes } from '../../../contract/api/earnings';
import { callRoute } from '../http';

export const reportActions = {
  /** The Monthly Income Report of one year, and the years it offers. */
  getIncomeReport: (year: number) => callRoute(earningsRoutes.income, { query: { year } }),
};
