/** What a kill switch acts on: one strategy, one customer's copying, or the whole platform. */
export type SwitchTarget = { scope: 'strategy'; id: string } | { scope: 'customer'; id: number } | { scope: 'platform' };

/** The resource of contract/access.ts whose actions (pause, closeAll) decide who may use the switch. */
export const resourceOf = { strategy: 'strategies', customer: 'customers', platform: 'platform' } as const;

export const queryKeyOf = (name: string, target: SwitchTarget) => [name, target.scope, target.scope === 'platform' ? null : target.id];
