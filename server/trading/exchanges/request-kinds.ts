import type { ExchangeId } from './types';

/**
 * Which requests count against a per-account ceiling of the exchange, by ccxt request path (e.g.
 * 'v5/order/create', 'v2/mix/order/place-order'): order writes, settings writes, and the reads Bitget
 * limits per account and endpoint.
 */
export type WriteKind = 'order' | 'setting';
export type ReadKind = 'positions' | 'orderDetail' | 'planPending' | 'planHistory' | 'accountSettings' | 'keyInfo';

const ORDER_PATHS: Record<ExchangeId, RegExp> = {
  bybit: /^v5\/(order\/(create|amend|cancel|create-batch|amend-batch|cancel-batch|cancel-all)|position\/trading-stop)$/,
  bitget: /^v2\/mix\/order\/(place-order|place-plan-order|place-tpsl-order|place-pos-tpsl|cancel-order|cancel-plan-order|close-positions|modify-order|modify-tpsl-order|batch-place-order|batch-cancel-orders)$/,
};
const SETTING_PATHS: Record<ExchangeId, RegExp> = {
  bybit: /^v5\/(position\/(set-leverage|switch-mode|set-tpsl-mode)|account\/set-margin-mode)$/,
  bitget: /^v2\/mix\/account\/(set-leverage|set-position-mode|set-margin-mode)$/,
};

const READ_PATHS: Record<ExchangeId, Partial<Record<string, ReadKind>>> = {
  bybit: {},
  bitget: {
    'v2/mix/position/all-position': 'positions',
    'v2/mix/order/detail': 'orderDetail',
    'v2/mix/order/orders-plan-pending': 'planPending',
    'v2/mix/order/orders-plan-history': 'planHistory',
    'v2/mix/account/account': 'accountSettings',
    'v2/spot/account/info': 'keyInfo',
  },
};

const barePath = (path: string) => path.replace(/^\/?(api\/)?/, '').replace(/\?.*$/, '');

/** Whether a ccxt request path (e.g. 'v5/order/create', 'v2/mix/order/place-order') writes orders or account settings. */
export function writeKind(exchange: ExchangeId, path: string): WriteKind | undefined {
  const bare = barePath(path);
  if (ORDER_PATHS[exchange].test(bare)) return 'order';
  if (SETTING_PATHS[exchange].test(bare)) return 'setting';
  return undefined;
}

/** Whether a request path is a read the exchange limits per account (Bitget: LIVE-FIDELITY B9). */
export function readKind(exchange: ExchangeId, path: string): ReadKind | undefined {
  return READ_PATHS[exchange][barePath(path)];
}

