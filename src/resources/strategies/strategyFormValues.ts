import { AmountType, CustomerGroup, EntryDirection, TakeProfitMode } from '../../../contract/enums';

/** One chosen group of the settings form: invest amount in dollars or in quantity, never both. */
export interface GroupRow {
  group: CustomerGroup;
  dollar: string;
  quantity: string;
}

/**
 * What the settings form holds. Inputs keep their text (an empty box is ''), so the form can show
 * exactly what was typed; `toStrategyBody` turns it into the contract's body.
 */
export interface StrategyFormValues {
  id: string;
  symbol: string;
  entryDirection: EntryDirection;
  leverage: string;
  positionMode: number | '';
  groups: GroupRow[];
  exclusiveCustomerId: number | null;
  takeProfitType: AmountType;
  takeProfitMode: TakeProfitMode;
  tp1Target: string;
  tp2Target: string;
  tp3Target: string;
  tp1Volume: string;
  tp2Volume: string;
  stopLossType: AmountType;
  stopLossAmount: string;
  advanceStopLoss: boolean;
  trailingStop: boolean;
  activationDollar: string;
  activationPercent: string;
  closeDollar: string;
  closePercent: string;
}

export const emptyStrategyForm: StrategyFormValues = {
  id: '',
  symbol: '',
  entryDirection: EntryDirection.Long,
  leverage: '',
  positionMode: '',
  groups: [],
  exclusiveCustomerId: null,
  takeProfitType: AmountType.Percent,
  takeProfitMode: TakeProfitMode.Full,
  tp1Target: '',
  tp2Target: '',
  tp3Target: '',
  tp1Volume: '100',
  tp2Volume: '0',
  stopLossType: AmountType.Percent,
  stopLossAmount: '',
  advanceStopLoss: false,
  trailingStop: false,
  activationDollar: '',
  activationPercent: '',
  closeDollar: '',
  closePercent: '',
};

export const GROUP_CHOICES: readonly CustomerGroup[] = [
  CustomerGroup.Gold,
  CustomerGroup.Internal,
  CustomerGroup.Vip,
  CustomerGroup.Occasion,
  CustomerGroup.Exclusive,
];
