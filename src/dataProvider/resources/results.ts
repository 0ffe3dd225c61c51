import { resultsRoutes } from '../../../contract/api/results';
import { callRoute } from '../http';

/** A customer's results (issue 29): staff read anyone's, a customer their own. */
export const resultsActions = {
  customerResults: (customerId: number) => callRoute(resultsRoutes.customer, { params: { id: customerId } }),
};
