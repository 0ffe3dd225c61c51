/**
 * Every enumeration of the product spec (section 3), with its numeric wire values and labels.
 * Code uses the names (AccountType.Admin), never the bare numbers.
 */

type EnumValues<T extends Record<string, number>> = T[keyof T];

function labelsOf<T extends Record<string, number>>(_values: T, labels: Record<EnumValues<T>, string>) {
  return labels;
}

export const AccountType = { Customer: 1, Agent: 2, Employee: 3, Admin: 4 } as const;
export type AccountType = EnumValues<typeof AccountType>;
export const accountTypeLabels = labelsOf(AccountType, { 1: 'Customer', 2: 'Agent', 3: 'Employee', 4: 'Admin' });
/** Labels used when creating staff ("Staff Permissions"). */
export const staffPermissionLabels = { 3: 'User', 4: 'Super Admin' } as const;

export const AmountType = { Dollar: 1, Quantity: 2, Percent: 3 } as const;
export type AmountType = EnumValues<typeof AmountType>;
export const amountTypeLabels = labelsOf(AmountType, { 1: '$', 2: 'Quantity', 3: '%' });

export const EntryDirection = { Long: 1, Short: 2 } as const;
export type EntryDirection = EnumValues<typeof EntryDirection>;
export const entryDirectionLabels = labelsOf(EntryDirection, { 1: 'Long', 2: 'Short' });

export const PositionMode = { OneWay: 1, Hedge: 2 } as const;
export type PositionMode = EnumValues<typeof PositionMode>;
export const positionModeLabels = labelsOf(PositionMode, { 1: 'One-Way Mode', 2: 'Hedge' });

export const TakeProfitMode = { Full: 1, Partial: 2 } as const;
export type TakeProfitMode = EnumValues<typeof TakeProfitMode>;
export const takeProfitModeLabels = labelsOf(TakeProfitMode, { 1: 'Full', 2: 'Partial' });

export const StrategyStatus = { Active: 1, Inactive: 2 } as const;
export type StrategyStatus = EnumValues<typeof StrategyStatus>;
export const strategyStatusLabels = labelsOf(StrategyStatus, { 1: 'Active', 2: 'Inactive' });

export const CustomerGroup = { Gold: 1, Internal: 2, Vip: 3, Occasion: 4, Exclusive: 5 } as const;
export type CustomerGroup = EnumValues<typeof CustomerGroup>;
export const customerGroupLabels = labelsOf(CustomerGroup, {
  1: 'Gold',
  2: 'Internal',
  3: 'Vip',
  4: 'Occasion',
  5: 'Exclusive',
});
export const UNKNOWN_GROUP_LABEL = 'Unknown Group';

export const AccountStatus = { Pending: 1, Blocked: 2, Active: 3, Incomplete: 4, Rejected: 5 } as const;
export type AccountStatus = EnumValues<typeof AccountStatus>;
export const accountStatusLabels = labelsOf(AccountStatus, {
  1: 'Pending',
  2: 'Blocked',
  3: 'Active',
  4: 'Incomplete',
  5: 'Rejected',
});
/** Statuses that may not log in (spec 4 / ARCHITECTURE 4). */
export const INACTIVE_ACCOUNT_STATUSES: readonly AccountStatus[] = [
  AccountStatus.Blocked,
  AccountStatus.Incomplete,
  AccountStatus.Rejected,
];

export const OrderEntryType = { Manual: 1, Api: 2 } as const;
export type OrderEntryType = EnumValues<typeof OrderEntryType>;
export const orderEntryTypeLabels = labelsOf(OrderEntryType, { 1: 'Manual', 2: 'API' });

/** Not enumerated by the spec: an Order is Active until every position is closed, then Win or Loss. */
export const OrderStatus = { Active: 1, Win: 2, Loss: 3 } as const;
export type OrderStatus = EnumValues<typeof OrderStatus>;
export const orderStatusLabels = labelsOf(OrderStatus, { 1: 'Active', 2: 'Win', 3: 'Loss' });

export const ExitType = { ByAdmin: 1, Customer: 2 } as const;
export type ExitType = EnumValues<typeof ExitType>;
export const exitTypeLabels = labelsOf(ExitType, { 1: 'Manual (Admin)', 2: 'Manual (Customer)' });
/** An exit nobody requested by hand (exit type null or 0): a signal, a take profit or a stop loss. */
export const AUTOMATIC_EXIT_LABEL = 'Automatic (Signal, TP/SL)';
/** The exit-type filter's value for automatic exits (stored without an exit type): after All 0 and the two manual types. */
export const AUTOMATIC_EXIT_FILTER = 3;
/** The exit-type filter's choices after All (0): the manual types, then the automatic exits. */
export const EXIT_TYPE_FILTER_CHOICES: ReadonlyArray<{ value: number; label: string }> = [
  { value: ExitType.ByAdmin, label: exitTypeLabels[ExitType.ByAdmin] },
  { value: ExitType.Customer, label: exitTypeLabels[ExitType.Customer] },
  { value: AUTOMATIC_EXIT_FILTER, label: AUTOMATIC_EXIT_LABEL },
];
/** The label of an exit audit row's exit type; null and 0 are automatic exits. */
export function exitTypeLabel(exitType: number | null): string {
  if (!exitType) return AUTOMATIC_EXIT_LABEL;
  return exitTypeLabels[exitType as ExitType] ?? String(exitType);
}

export const Exchange = { Bitget: 1, Bybit: 2, Binance: 3, Okx: 4 } as const;
export type Exchange = EnumValues<typeof Exchange>;
/** platformType 0 means no exchange connected. */
export const NO_EXCHANGE = 0;
export const exchangeLabels = labelsOf(Exchange, { 1: 'Bitget', 2: 'Bybit', 3: 'Binance', 4: 'OKX' });
/** Path segment of GET /api/security/{exchange}/oauth/{tempAccountId}. */
export const exchangeSlugs = labelsOf(Exchange, { 1: 'bitget', 2: 'bybit', 3: 'binance', 4: 'okx' });
export const ENABLED_EXCHANGES: readonly Exchange[] = [Exchange.Bitget, Exchange.Bybit];

export const RegistrationIdStatus = { Pending: 1, Registered: 2, Expired: 3 } as const;
export type RegistrationIdStatus = EnumValues<typeof RegistrationIdStatus>;
export const registrationIdStatusLabels = labelsOf(RegistrationIdStatus, {
  1: 'Pending',
  2: 'Registered',
  3: 'Expired',
});

export const Gender = { Male: 1, Female: 2 } as const;
export type Gender = EnumValues<typeof Gender>;
export const genderLabels = labelsOf(Gender, { 1: 'Male', 2: 'Female' });

export const ApplicationSource = { Internal: 1, External: 2 } as const;
export type ApplicationSource = EnumValues<typeof ApplicationSource>;
export const applicationSourceLabels = labelsOf(ApplicationSource, { 1: 'Internal', 2: 'External' });

export const NotificationType = { EntryFailure: 1, ExitFailure: 2 } as const;
export type NotificationType = EnumValues<typeof NotificationType>;

/** Sort direction used by every sortable list: 1 ascending, 2 descending. */
export const SortType = { Ascending: 1, Descending: 2 } as const;
export type SortType = EnumValues<typeof SortType>;

/** The numeric values of an enumeration object, as a tuple usable by zod and CHECK constraints. */
export function enumValues<T extends Record<string, number>>(e: T): [EnumValues<T>, ...EnumValues<T>[]] {
  return Object.values(e) as [EnumValues<T>, ...EnumValues<T>[]];
}
