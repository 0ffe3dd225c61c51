/**
 * A request trading turns down for a reason its caller can act on: what it names does not exist
 * ('missing') or is in a state that forbids it ('state'). Trading knows nothing of HTTP; the API's
 * error handler answers 404 and 409.
 */
export class TradingRefusal extends Error {
  constructor(
    readonly reason: 'missing' | 'state',
    message: string,
  ) {
    super(message);
    this.name = 'TradingRefusal';
  }
}

export const missing = (message: string) => new TradingRefusal('missing', message);
export const refusedInState = (message: string) => new TradingRefusal('state', message);
