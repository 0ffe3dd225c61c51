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
  /** Free text (a message): cut to one line with '…', the whole text shown on hover. */
  long?: boolean;
}

/** The narrowest a long-text column gets (px). */
export const LONG_TEXT_MIN_WIDTH = 120;

/**
 * Columns are as wide as their content on one line (ids, dates, names never wrap). A long-text
 * column takes the width left (width 100% with max-width 0: the table does not grow for it) and
 * cuts its text there.
 */
const fitted = { whiteSpace: 'nowrap' } as const;
const cut = { ...fitted, width: '100%', maxWidth: 0, minWidth: LONG_TEXT_MIN_WIDTH, overflow: 'hidden', textOverflow: 'ellipsis' } as const;

/** The value at a dotted path of a record ('account.firstName'). */
function valueAt(record: RaRecord, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<string, unknown>)[key] : undefined), record);
}

/**
 * One column of <ListDataTable>, on ra-core's headless DataTable: the header (a sort button on
 * sortable columns, its arrow always visible) or the record's cell, as the table asks.
 */
export function ListColumn<R extends RaRecord>({ source, label, disableSort, render, children, long }: ListColumnProps<R>) {
  const renderContext = useDataTableRenderContext();
  const translate = useTranslate();
  const sort = useDataTableSortContext();
  const { handleSort } = useDataTableCallbacksContext();
  const record = useRecordContext<R>();
  if (renderContext === 'header') {
    const title = translate(label, { _: label });
    if (!source || disableSort || !handleSort) return <TableCell sx={fitted}>{title}</TableCell>;
    const active = sort?.field === source;
    return (
      <TableCell sx={fitted} sortDirection={active ? (sort?.order === 'DESC' ? 'desc' : 'asc') : false}>
        <TableSortLabel active={active} direction={active && sort?.order === 'DESC' ? 'desc' : 'asc'} data-field={source} data-order="ASC" onClick={handleSort}>
          {title}
        </TableSortLabel>
      </TableCell>
    );
  }
  if (renderContext !== 'data' || !record) return null;
  const value = source ? valueAt(record, source) : undefined;
  const content = render ? render(record) : (children ?? (value === undefined || value === null ? '' : String(value)));
  return (
    <TableCell sx={long ? cut : fitted} title={long && typeof content === 'string' ? content : undefined}>
      {content}
    </TableCell>
  );
}
