import { describe, expect, it } from 'vitest';
import { accountRoutes } from '../../contract/api/account';
import { countryRoutes } from '../../contract/api/country';
import { exchangeRoutes } from '../../contract/api/exchange';
import { publicRoutes } from './publicRoutes';

describe('publicRoutes', () => {
  it('match the contract routes they stand for', () => {
    const pick = (route: { method: string; path: string }) => ({ method: route.method, path: route.path });
    const { countrySearch, oauthStart, ...account } = publicRoutes;
    for (const [name, route] of Object.entries(account)) {
      expect(pick(route), name).toEqual(pick(accountRoutes[name as keyof typeof accountRoutes]));
    }
    expect(pick(countrySearch)).toEqual(pick(countryRoutes.search));
    expect(pick(oauthStart)).toEqual(pick(exchangeRoutes.connectUrl));
  });
});
