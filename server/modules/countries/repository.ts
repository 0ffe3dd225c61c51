import { and, asc, count, eq, ilike, sql } from 'drizzle-orm';
import type { FilterItem } from '../../../contract/common';
import type { Country, CountryRef } from '../../../contract/api/country';
import type { DbOrTx } from '../../db/client';
import { countries } from '../../db/schema/index';
import { filterValue, likePattern, offsetOf, pageOf, type PageWindow } from '../../db/paging';
import { idCondition } from '../orders/filters';

export function flagUrl(countryCode: string): string {
  return `/flags/${countryCode.toLowerCase()}.svg`;
}

export function toCountryRef(row: { id: number; name: string; countryCode: string }): CountryRef {
  return { id: row.id, name: row.name, imageUrl: flagUrl(row.countryCode), countryCode: row.countryCode };
}

/** Countries by part of their name (filter `name`) and/or by id (filter `id`: a list filter showing its chosen country). */
export async function searchCountries(db: DbOrTx, filter: FilterItem[], page: PageWindow) {
  const name = filterValue(filter, 'name');
  const where = and(name ? ilike(countries.name, likePattern(name)) : undefined, idCondition(filter, 'id', countries.id));
  const [rows, [total]] = await Promise.all([
    db.select().from(countries).where(where).orderBy(asc(countries.name)).limit(page.pageSize).offset(offsetOf(page)),
    db.select({ n: count() }).from(countries).where(where),
  ]);
  const data: Country[] = rows.map((row) => ({ ...toCountryRef(row), dialCode: row.dialCode }));
  return pageOf(data, total?.n ?? 0, page);
}

export async function countryExists(db: DbOrTx, id: number): Promise<boolean> {
  const [row] = await db.select({ one: sql<number>`1` }).from(countries).where(eq(countries.id, id)).limit(1);
  return row !== undefined;
}
