import type { GetListParams, GetListResult, RaRecord } from 'ra-core';
import { DEFAULT_PAGE_SIZE } from '../../contract/constants';
import type { Paged } from '../../contract/envelope';

/** react-admin pages start at 1, the wire's `pageIndex` at 0. */
export function wirePage(params: Pick<GetListParams, 'pagination'>): { pageIndex: number; pageSize: number } {
  const page = params.pagination?.page ?? 1;
  const perPage = params.pagination?.perPage ?? DEFAULT_PAGE_SIZE;
  return { pageIndex: Math.max(0, page - 1), pageSize: perPage };
}

/** A paged answer (`data.data`, `data.paging.totalCount`) as react-admin's list result. */
export function toListResult<T, R extends RaRecord>(paged: Paged<T>, toRecord: (row: T) => R): GetListResult<R> {
  const data = paged.data.map(toRecord);
  const { pageIndex, pageSize, totalCount } = paged.paging;
  return {
    data,
    total: totalCount,
    pageInfo: { hasPreviousPage: pageIndex > 0, hasNextPage: (pageIndex + 1) * pageSize < totalCount },
  };
}

/** For rows that already carry a numeric or string `id`. */
export function asRecord<T extends { id: string | number }>(row: T): T & RaRecord {
  return row;
}
