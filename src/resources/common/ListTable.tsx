import Box from '@mui/material/Box';
import Stack from '@mui/material/Stack';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import TableSortLabel from '@mui/material/TableSortLabel';
import type { ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { SortType } from '../../../contract/enums';
import { PageSizeSelector } from '../../components/PageSizeSelector';
import { Paging } from '../../components/Paging';
import { SkeletonRows } from '../../components/SkeletonRows';
import type { ListSort } from './sort';

export interface Column<R> {
  key: string;
  label: string;
  /** The field name the server sorts on; absent = not sortable. */
  sortField?: string;
  render: (row: R, index: number) => ReactNode;
}

export interface ListTableProps<R> {
  columns: Column<R>[];
  rows: R[] | undefined;
  rowKey: (row: R) => string | number;
  loading: boolean;
  total: number;
  page: number;
  pageSize: number;
  onPageChange: (page: number) => void;
  onPageSizeChange?: (size: number) => void;
  sort?: ListSort;
  onSort?: (field: string) => void;
  skeletonRows?: number;
}

/** A back-office table: sortable headers, skeleton rows while loading, the empty text, paging. */
export function ListTable<R>(props: ListTableProps<R>) {
  const translate = useTranslate();
  const rows = props.rows ?? [];
  return (
    <Stack spacing={1}>
      <TableContainer>
        <Table size="small">
          <TableHead>
            <TableRow>
              {props.columns.map((column) => (
                <TableCell key={column.key}>
                  {column.sortField && props.onSort ? (
                    <TableSortLabel
                      active={props.sort?.field === column.sortField}
                      direction={props.sort?.field === column.sortField && props.sort.type === SortType.Descending ? 'desc' : 'asc'}
                      onClick={() => props.onSort?.(column.sortField!)}
                    >
                      {column.label}
                    </TableSortLabel>
                  ) : (
                    column.label
                  )}
                </TableCell>
              ))}
            </TableRow>
          </TableHead>
          <TableBody>
            {props.loading ? (
              <SkeletonRows rows={props.skeletonRows ?? 5} columns={props.columns.length} />
            ) : rows.length === 0 ? (
              <TableRow>
                <TableCell colSpan={props.columns.length} align="center">
                  {translate('app.ui.other.noRecords')}
                </TableCell>
              </TableRow>
            ) : (
              rows.map((row, index) => (
                <TableRow key={props.rowKey(row)} hover>
                  {props.columns.map((column) => (
                    <TableCell key={column.key}>{column.render(row, index)}</TableCell>
                  ))}
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
      <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center', flexWrap: 'wrap', gap: 1 }}>
        <Paging page={props.page} pageSize={props.pageSize} totalCount={props.total} onPageChange={props.onPageChange} />
        {props.onPageSizeChange && <PageSizeSelector value={props.pageSize} onChange={props.onPageSizeChange} />}
      </Box>
    </Stack>
  );
}
