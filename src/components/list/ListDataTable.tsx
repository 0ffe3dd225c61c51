import { Children } from 'react';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import { DataTable, useListContext, type DataTableProps, type RaRecord } from 'react-admin';
import { SkeletonRows } from '../SkeletonRows';
import { NoRecords } from './NoRecords';

const SKELETON_ROWS = 5;

/**
 * react-admin's DataTable with the back office's defaults: skeleton rows while the first page
 * loads (two seconds at most), 'No records available' when empty, no row selection, and rows that
 * only follow a `rowClick` you give (react-admin's own record URLs are not the spec's).
 */
export function ListDataTable<R extends RaRecord>({ children, ...props }: DataTableProps<R>) {
  const { isPending } = useListContext();
  if (isPending) {
    return (
      <Table size="small" aria-busy="true">
        <TableBody>
          <SkeletonRows rows={SKELETON_ROWS} columns={Children.count(children)} />
        </TableBody>
      </Table>
    );
  }
  return (
    <DataTable<R> rowClick={false} bulkActionButtons={false} empty={<NoRecords />} {...props}>
      {children}
    </DataTable>
  );
}
