import { switchRoutes } from '../../../contract/api/switches';
import { callRoute } from '../http';

/** Kill switches (issue 29): the pause state of a strategy, a customer's copying and the platform. */
export const switchActions = {
  strategyPause: (strategyId: string) => callRoute(switchRoutes.strategyState, { params: { id: strategyId } }),
  setStrategyPause: (strategyId: string, paused: boolean) => callRoute(switchRoutes.setStrategy, { params: { id: strategyId }, body: { paused } }),
  customerPause: (customerId: number) => callRoute(switchRoutes.customerState, { params: { id: customerId } }),
  setCustomerPause: (customerId: number, paused: boolean) => callRoute(switchRoutes.setCustomer, { params: { id: customerId }, body: { paused } }),
  platformPause: () => callRoute(switchRoutes.platformState, {}),
  /** Mails the signed-in admin the code that confirms the platform's pause or resume. */
  requestPlatformPauseCode: () => callRoute(switchRoutes.platformCode, {}),
  setPlatformPause: (paused: boolean, code: string) => callRoute(switchRoutes.setPlatform, { body: { paused, code } }),
};
