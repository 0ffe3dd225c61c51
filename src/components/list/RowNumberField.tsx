import { useListContext, useRecordContext } from 'ra-core';

/** The "number" column: the row's position across pages (1-based). */
export function RowNumberField() {
  const record = useRecordContext();
  const { data, page, perPage } = useListContext();
  const index = record && data ? data.findIndex((row) => row.id === record.id) : -1;
  if (index < 0) return null;
  return <>{(page - 1) * perPage + index + 1}</>;
}
