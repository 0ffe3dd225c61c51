/** One protective order attached to an execution's position, as recorded in `executions.legs`. */
export interface ExecutionLeg {
  kind: 'tp1' | 'tp2' | 'tp3' | 'trailing';
  clientOrderId: string;
  quantity: number;
  /** Trigger price (TP) or activation price (trailing). */
  price: number;
  filledQty: number;
  avgPrice: number | null;
  status: 'open' | 'filled' | 'canceled';
  /** 0 for the first placement; n after the n-th resize. */
  round: number;
}
