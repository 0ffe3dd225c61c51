import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client';
import type { Secrets } from '../lib/secrets';
import type { TradingConfig } from './config';
import type { AdapterLookup, ExchangeId } from './exchanges/types';
import type { Pacer } from './pacing';
import type { PriceSource } from './prices';
import type { SettingsCache } from './settings-cache';
import type { WarmAccounts } from './accounts/warm';
import type { PlacedEntries } from './execution-state/entry';
import { Exchange } from '../../contract/enums';

/** What the dispatcher, the executors and the position sync run on, in one process. */
export interface TradingRuntime {
  db: Db;
  secrets: Secrets;
  log: FastifyBaseLogger;
  config: TradingConfig;
  adapters: AdapterLookup;
  prices: PriceSource;
  settings: SettingsCache;
  /** Shares each exchange's request budget between entries and protection. */
  pacer: Pacer;
  /** Identifies this process's claims (host:pid:random). */
  worker: string;
  /** Records acknowledged entries, those of the same moment in one statement. */
  placedEntries: PlacedEntries;
  /** The warm accounts of the slices this worker leases (absent outside a started dispatcher). */
  accounts?: WarmAccounts | undefined;
  /**
   * Executions a private stream asked to look at again while they were running: when their run ends they
   * are due at once instead of after their usual delay.
   */
  rechecks: Set<number>;
}

export function exchangeIdOf(platformType: number): ExchangeId | undefined {
  return platformType === Exchange.Bitget ? 'bitget' : platformType === Exchange.Bybit ? 'bybit' : undefined;
}
