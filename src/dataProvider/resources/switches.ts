import { switchRoutes } from '../../../contract/api/switches';
import { callRoute } from '../http';

/** Kill switches (issue 29): pause and close all of a strategy, a customer's copying and the platform. */
export const switchActions = {
  strategyPause: (strategyId: string) => callRoute(switchRoutes.strategyState, { params: { id: strategyId } }),
  setStrategyPause: (strategyId: string, paused: boolean) => callRoute(switchRoutes.setStrategy, { params: { id: strategyId }, body: { paused } }),
  customerPause: (customerId: number) => callRoute(switchRoutes.customerState, { params: { id: customerId } }),
  setCustomerPause: (customerId: number, paused: boolean) => callRoute(switchRoutes.setCustomer, { params: { id: customerId }, body: { paused } }),
  platformPause: () => callRoute(switchRoutes.platformState, {}),
  /** Mails the signed-in admin the code that confirms a platform-wide switch (pause, resume, close all). */
  requestPlatformPauseCode: () => callRoute(switchRoutes.platformCode, {}),
  setPlatformPause: (paused: boolean, code: string) => callRoute(switchRoutes.setPlatform, { body: { paused, code } }),
  strategyCloseAll: (strategyId: string) => callRoute(switchRoutes.strategyCloseAllState, { params: { id: strategyId } }),
  closeAllOfStrategy: (strategyId: string) => callRoute(switchRoutes.closeAllStrategy, { params: { id: strategyId } }),
  customerCloseAll: (customerId: number) => callRoute(switchRoutes.customerCloseAllState, { params: { id: customerId } }),
  closeAllOfCustomer: (customerId: number) => callRoute(switchRoutes.closeAllCustomer, { params: { id: customerId } }),
  platformCloseAll: () => callRoute(switchRoutes.platformCloseAllState, {}),
  closeAllOfPlatform: (code: string) => callRoute(switchRoutes.closeAllPlatform, { body: { code } }),
};
