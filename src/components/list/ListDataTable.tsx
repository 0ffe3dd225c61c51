import { Children, type ReactNode } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableContainer from '@mui/material/TableContainer';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { DataTableBase, DataTableRenderContext, RecordContextProvider, useDataTableCallbacksContext, useDataTableDataContext, useResourceContext, type Identifier, type RaRecord } from 'ra-core';
import { useNavigate } from 'react-router-dom';
import { SkeletonRows } from '../SkeletonRows';
import { NoRecords } from './NoRecords';

const SKELETON_ROWS = 5;
/** Cells a little narrower than MUI's small ones (16 px each side): ten columns fit a 1366 px screen beside the menu. */
const cellPadding = { '& .MuiTableCell-root': { px: 1.5 } } as const;

export interface ListDataTableProps<R extends RaRecord> {
  /** <ListColumn> elements. */
  children: ReactNode;
  /** Where a click on a row leads (the spec's URL of the record); rows do nothing without it. */
  rowClick?: (id: Identifier, resource: string, record: R) => string;
}

function Rows({ children }: { children: ReactNode }) {
  const data = useDataTableDataContext();
  const { rowClick } = useDataTableCallbacksContext();
  const resource = useResourceContext() ?? '';
  const navigate = useNavigate();
  return (
    <TableBody>
      {(data ?? []).map((record) => {
        const open = typeof rowClick === 'function' ? () => navigate(String(rowClick(record.id, resource, record))) : undefined;
        return (
          <RecordContextProvider key={record.id} value={record}>
            <TableRow hover onClick={open} sx={open ? { cursor: 'pointer' } : undefined}>
              {children}
            </TableRow>
          </RecordContextProvider>
        );
      })}
    </TableBody>
  );
}

/**
 * The list's table on ra-core's headless DataTable (data, sort and row click from the ListContext):
 * skeleton rows while the first page loads (two seconds at most), 'No records available' when
 * empty, sortable headers for columns with a `source`. react-admin's material DataTable would add
 * row selection, a column chooser and bulk delete that no screen uses (about 20 kB gzip).
 */
export function ListDataTable<R extends RaRecord>({ children, rowClick }: ListDataTableProps<R>) {
  const loading = (
    <Table size="small" aria-busy="true">
      <TableBody>
        <SkeletonRows rows={SKELETON_ROWS} columns={Children.count(children)} />
      </TableBody>
    </Table>
  );
  return (
    <DataTableBase<R> hasBulkActions={false} loading={loading} empty={<NoRecords />} rowClick={rowClick ?? false}>
      <TableContainer>
        <Table size="small" sx={cellPadding}>
          <TableHead>
            <TableRow>
              <DataTableRenderContext.Provider value="header">{children}</DataTableRenderContext.Provider>
            </TableRow>
          </TableHead>
          <DataTableRenderContext.Provider value="data">
            <Rows>{children}</Rows>
          </DataTableRenderContext.Provider>
        </Table>
      </TableContainer>
    </DataTableBase>
  );
}
