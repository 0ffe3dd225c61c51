import type { EngineError, EngineErrorKind } from '../engine-error';
import { ApiError } from '../http-types';

const codes: Record<EngineErrorKind, [string, string]> = {
  unknownSymbol: ['40034', 'Parameter symbol does not exist'],
  duplicateClientId: ['45034', 'clientOid duplicate'],
  positionModeMismatch: ['40774', 'The order type for unilateral position must also be the unilateral position type.'],
  qtyStep: ['40808', 'Parameter verification exception size checkBDScale error'],
  minQty: ['45111', 'less than the minimum order quantity'],
  maxQty: ['45112', 'more than the maximum order quantity'],
  maxMktQty: ['45112', 'more than the maximum order quantity'],
  minNotional: ['45110', 'less than the minimum amount 5 USDT'],
  reduceOnlyNoPosition: ['22002', 'No position to close'],
  noPosition: ['40837', 'There is no position in this position, so stop-profit and stop-loss orders cannot be made'],
  insufficientBalance: ['43012', 'Insufficient balance'],
  orderNotFound: ['40109', 'The data of the order cannot be found, please confirm the order number'],
  invalidParam: ['40017', 'Parameter verification failed'],
  hasPosition: ['45117', 'Currently holding positions or orders, the mode cannot be adjusted'],
  noLiquidity: ['22045', 'Insufficient liquidity in the market, please operate later'],
};

/** Bitget code + msg of an engine refusal (EXCHANGES 3.7); errors answer HTTP 400. */
export function bitgetError(error: EngineError): ApiError {
  const [code, message] = codes[error.kind];
  return new ApiError(code, error.kind === 'invalidParam' ? `${message}: ${error.message}` : message);
}

export function paramError(message: string): ApiError {
  return new ApiError('40017', `Parameter verification failed: ${message}`);
}
