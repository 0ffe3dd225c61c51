/** Why the engine refused something; each exchange layer maps the kind to its own code and text. */
export type EngineErrorKind =
  | 'unknownSymbol'
  | 'duplicateClientId'
  | 'positionModeMismatch'
  | 'qtyStep'
  | 'minQty'
  | 'maxQty'
  | 'maxMktQty'
  | 'minNotional'
  | 'reduceOnlyNoPosition'
  | 'noPosition'
  | 'insufficientBalance'
  | 'orderNotFound'
  | 'invalidParam'
  | 'hasPosition'
  | 'noLiquidity';

export class EngineError extends Error {
  constructor(
    readonly kind: EngineErrorKind,
    message: string,
  ) {
    super(message);
  }
}
