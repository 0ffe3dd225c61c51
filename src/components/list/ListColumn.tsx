import TableCell from '@mui/material/TableCell';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { ReactNode } from 'react';
import { useDataTableCallbacksContext, useDataTableRenderContext, useDataTableSortContext, useRecordContext, useTranslate, type RaRecord } from 'ra-core';

export interface ListColumnProps<R extends RaRecord> {
  /** The record field shown (and, unless `disableSort`, the field the list sorts on). */
  source?: string;
  /** A translation key or text. */
  label: string;
  disableSort?: boolean;
  render?: (record: R) => ReactNode;
  /** Rendered in the record's context (e.g. <RowNumberField />). */
  children?: ReactNode;
}

/** The value at a dotted path of a record ('account.firstName'). */
function valueAt(record: RaRecord, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);
}

/**
 * One column of <ListDataTable>, on ra-core's headless DataTable: the header (a sort button on
 * sortable columns, its arrow always visible) or the record's cell, as the table asks.
 */
export function ListColumn<R extends RaRecord>({ source, label, disableSort, render, children }: ListColumnProps<R>) {
  const renderContext = useDataTableRenderContext();
  const translate = useTranslate();
  const sort = useDataTableSortContext();
  const { handleSort } = useDataTableCallbacksContext();
  const record = useRecordContext<R>();
  if (renderContext === 'header') {
    const title = translate(label, { _: label });
    if (!source || disableSort || !handleSort) return <TableCell>{title}</TableCell>;
    const active = sort?.field === source;
    return (
      <TableCell sortDirection={active ? (sort?.order === 'DESC' ? 'desc' : 'asc') : false}>
        <TableSortLabel active={active} direction={active && sort?.order === 'DESC' ? 'desc' : 'asc'} data-field={source} data-order="ASC" onClick={handleSort}>
          {title}
        </TableSortLabel>
      </TableCell>
    );
  }
  if (renderContext !== 'data' || !record) return null;
  const value = source ? valueAt(record, source) : undefined;
  return <TableCell>{render ? render(record) : (children ?? (value === undefined || value === null ? '' : String(value)))}</TableCell>;
}
