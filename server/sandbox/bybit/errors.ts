import type { EngineError, EngineErrorKind } from '../engine-error';
import { ApiError } from '../http-types';

const codes: Record<EngineErrorKind, [string, string]> = {
  unknownSymbol: ['10001', 'params error: symbol invalid'],
  duplicateClientId: ['110072', 'OrderLinkedID is duplicate'],
  positionModeMismatch: ['10001', 'position idx not match position mode'],
  qtyStep: ['10001', 'Qty invalid'],
  minQty: ['10001', 'The number of contracts exceeds minimum limit allowed'],
  maxQty: ['10001', 'The number of contracts exceeds maximum limit allowed'],
  maxMktQty: ['10001', 'The number of contracts exceeds maximum limit allowed'],
  minNotional: ['110094', 'Order does not meet minimum order value 5USDT'],
  reduceOnlyNoPosition: ['110017', 'current position is zero, cannot fix reduce-only order qty'],
  noPosition: ['10001', 'can not set tp/sl/ts for zero position'],
  insufficientBalance: ['110007', 'ab not enough for new order'],
  orderNotFound: ['110001', 'order not exists or too late to cancel'],
  invalidParam: ['10001', 'params error'],
  hasPosition: ['110024', 'You have an existing position, so position mode cannot be switched'],
  // Never raised on Bybit (its market orders are cancelled unfilled instead); the error list's low-liquidity text.
  noLiquidity: ['110118', 'Unable to retrieve a pruce of the market order due to low liquidity'],
};

/** Bybit retCode + retMsg of an engine refusal (EXCHANGES 2.7). */
export function bybitError(error: EngineError): ApiError {
  const [code, message] = codes[error.kind];
  return new ApiError(code, error.kind === 'invalidParam' ? `params error: ${error.message}` : message);
}

export function paramError(message: string): ApiError {
  return new ApiError('10001', `params error: ${message}`);
}
