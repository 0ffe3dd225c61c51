import { sql, type SQL } from 'drizzle-orm';
import { REGISTRATION_ID_VALID_DAYS } from '../../../contract/constants';
import { RegistrationIdStatus } from '../../../contract/enums';
import { registrationIds } from '../../db/schema/index';
import { DAY_MS } from '../../lib/clock';

/** A code created at or before this instant has expired. */
export function expiryCutoff(now: Date): Date {
  return new Date(now.getTime() - REGISTRATION_ID_VALID_DAYS * DAY_MS);
}

/**
 * The status is derived from the row and the clock in every query, so it is right in every answer
 * with no job flipping rows to Expired.
 */
export function registrationStatusSql(now: Date): SQL<number> {
  return sql<number>`case
    when ${registrationIds.usedAt} is not null then ${RegistrationIdStatus.Registered}
    when ${registrationIds.datetimeInserted} <= ${expiryCutoff(now)} then ${RegistrationIdStatus.Expired}
    else ${RegistrationIdStatus.Pending} end`;
}

export function registrationStatusOf(row: { usedAt: Date | null; datetimeInserted: Date }, now: Date): RegistrationIdStatus {
  if (row.usedAt) return RegistrationIdStatus.Registered;
  if (row.datetimeInserted <= expiryCutoff(now)) return RegistrationIdStatus.Expired;
  return RegistrationIdStatus.Pending;
}

/** Codes are stored upper-case; people may type them in any case and with spaces. */
export function normalizeCode(code: string): string {
  return code.replace(/\s+/g, '').toUpperCase();
}
