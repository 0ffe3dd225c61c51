import type { accountRoutes } from '../../contract/api/account';
import type { countryRoutes } from '../../contract/api/country';
import type { exchangeRoutes } from '../../contract/api/exchange';
import type { RouteDef } from '../../contract/route';

/**
 * The routes the public pages call, as method + path only, typed as their contract definitions.
 * The contract's zod schemas stay out of the public bundle (the server validates); a test checks
 * each entry against contract/api.
 */
type Light<R extends RouteDef> = R;
const light = <R extends RouteDef>(method: R['method'], path: string) => ({ method, path }) as unknown as Light<R>;
type A = typeof accountRoutes;

export const publicRoutes = {
  login: light<A['login']>('POST', '/api/security/login'),
  requestVerification: light<A['requestVerification']>('POST', '/api/security/email/requestverification'),
  verifyEmail: light<A['verifyEmail']>('POST', '/api/security/email/verify'),
  forgotPassword: light<A['forgotPassword']>('POST', '/api/security/password/forgot'),
  verifyPassword: light<A['verifyPassword']>('POST', '/api/security/password/verify'),
  verifyRegistrationId: light<A['verifyRegistrationId']>('POST', '/api/security/registrationid/verify'),
  register: light<A['register']>('POST', '/api/security/register'),
  me: light<A['me']>('GET', '/api/account'),
  logout: light<A['logout']>('POST', '/api/security/logout'),
  countrySearch: light<(typeof countryRoutes)['search']>('POST', '/api/country/search'),
  /** GET /api/security/{exchange}/oauth/{tempAccountId}: the exchange's authorisation URL (ARCHITECTURE 7). */
  oauthStart: light<(typeof exchangeRoutes)['connectUrl']>('GET', '/api/security/:exchange/oauth/:tempAccountId'),
};
