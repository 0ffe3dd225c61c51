import { sql } from 'drizzle-orm';
import { AccountStatus } from '../../contract/enums';
import { decryptCredentials } from '../lib/credentials';
import type { TradingRuntime } from './runtime';

/**
 * Sets leverage and position mode ahead of time for every connected, active customer of the strategy's
 * groups (e.g. after a strategy is saved or a customer connects), so the hot path of an alert is the
 * order alone. Runs `parallel` customers at a time through the shared rate limiter. Returns the
 * customers that failed, with the reason.
 */
export async function prepareStrategyAccounts(rt: TradingRuntime, strategyId: string, parallel = 200): Promise<Array<{ customerId: number; reason: string }>> {
  const result = await rt.db.execute<{ id: number; account_id: number; platform_type: number; api_key_enc: string; api_secret_enc: string; passphrase_enc: string | null; symbol: string; leverage: number; position_mode: number }>(sql`
    select c.id, c.account_id, c.platform_type, c.api_key_enc, c.api_secret_enc, c.passphrase_enc, s.symbol, s.leverage, s.position_mode
    from strategies s
    join strategy_groups g on g.strategy_id = s.id
    join customers c on c."group" = g."group"
    join accounts a on a.id = c.account_id
    where s.id = ${strategyId} and a.status = ${AccountStatus.Active} and c.platform_type in (1, 2) and c.api_key_enc is not null`);
  const failures: Array<{ customerId: number; reason: string }> = [];
  const queue = [...result.rows];
  const work = async () => {
    for (let row = queue.shift(); row; row = queue.shift()) {
      const adapter = rt.adapters(Number(row.platform_type));
      const credentials = decryptCredentials(rt.secrets, { accountId: Number(row.account_id), apiKeyEnc: row.api_key_enc, apiSecretEnc: row.api_secret_enc, passphraseEnc: row.passphrase_enc });
      if (!adapter || !credentials) continue;
      try {
        await rt.settings.ensure({
          adapter,
          credentials,
          customerId: Number(row.id),
          platformType: Number(row.platform_type),
          symbol: row.symbol,
          wanted: { leverage: Number(row.leverage), positionMode: Number(row.position_mode) },
        });
      } catch (error) {
        failures.push({ customerId: Number(row.id), reason: error instanceof Error ? error.message : String(error) });
      }
    }
  };
  await Promise.all(Array.from({ length: parallel }, work));
  return failures;
}
