import Button from '@mui/material/Button';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { ExecutionQuality } from '../../../contract/api/quality';
import { useAppDataProvider } from '../../dataProvider';

const COLUMNS = ['customer', 'state', 'sent', 'ack', 'fill', 'price', 'vsAlert', 'vsFirst'] as const;
const show = (value: number | null) => (value === null ? '-' : String(value));

function cellsOf(row: ExecutionQuality): string[] {
  return [row.customerName, row.state, show(row.sentMs), show(row.ackMs), show(row.fillMs), show(row.entryPrice), show(row.slippageVsAlertBps), show(row.slippageVsFirstFillBps)];
}

function CopiesTable({ orderId }: { orderId: number }) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const copies = useQuery({ queryKey: ['orderQuality', orderId], queryFn: () => dataProvider.orderQuality(orderId) });
  return (
    <Table size="small" aria-label={translate('app.quality.copies.title', { id: orderId })}>
      <TableHead>
        <TableRow>
          {COLUMNS.map((column) => (
            <TableCell key={column}>{translate(`app.quality.copies.${column}`)}</TableCell>
          ))}
        </TableRow>
      </TableHead>
      <TableBody>
        {(copies.data ?? []).map((row) => (
          <TableRow key={row.executionId}>
            {cellsOf(row).map((value, i) => (
              <TableCell key={COLUMNS[i]}>{value}</TableCell>
            ))}
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The order's detail for staff (issue 29): every copy's latencies from the alert and the slippage of its fill. */
export function OrderQualityButton({ orderId }: { orderId: number }) {
  const translate = useTranslate();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setOpen(true)}>
        {translate('app.quality.actions.show')}
      </Button>
      <Dialog open={open} onClose={() => setOpen(false)} maxWidth="lg" fullWidth>
        <DialogTitle>{translate('app.quality.copies.title', { id: orderId })}</DialogTitle>
        <DialogContent>{open && <CopiesTable orderId={orderId} />}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)}>{translate('app.quality.actions.close')}</Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
