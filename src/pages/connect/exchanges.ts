import { ENABLED_EXCHANGES, Exchange, exchangeLabels, exchangeSlugs } from '../../../contract/enums';

export interface ExchangeEntry {
  id: Exchange;
  name: string;
  slug: string;
  enabled: boolean;
}

/** The exchange catalogue of spec 3: Bitget and Bybit enabled, Binance and OKX 'Coming soon'. */
export const exchangeCatalogue: ExchangeEntry[] = (Object.values(Exchange) as Exchange[]).map((id) => ({
  id,
  name: exchangeLabels[id],
  slug: exchangeSlugs[id],
  enabled: ENABLED_EXCHANGES.includes(id),
}));

/** Entries whose name contains the search text (case-insensitive). */
export function searchExchanges(text: string): ExchangeEntry[] {
  const needle = text.trim().toLowerCase();
  return needle ? exchangeCatalogue.filter((entry) => entry.name.toLowerCase().includes(needle)) : exchangeCatalogue;
}
