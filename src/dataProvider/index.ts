export { createDataProvider, type AppDataProvider } from './dataProvider';
export { callRoute, errorMessage, statusOf, type CallArgs } from './http';
export { asRecord, toListResult, wirePage } from './paging';
export { readToken, removeToken, storeToken } from './token';
export type { EndpointTable, ResourceEndpoints } from './types';
