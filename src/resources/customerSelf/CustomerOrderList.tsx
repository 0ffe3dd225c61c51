import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import type { CustomerExecution } from '../../../contract/api/order';
import { entryDirectionLabels, type EntryDirection } from '../../../contract/enums';
import { UsdtAmount } from '../../components/UsdtAmount';
import { formatDate, formatTime } from '../../components/formatDate';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { MonthFilter } from '../../components/list/MonthFilter';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { ownResultOf, type OwnResult } from './ownResult';

const FILTERS = ['month'] as const;
const Column = ListColumn<CustomerExecution>;
const resultColor: Record<OwnResult, 'info' | 'success' | 'error' | 'default'> = { active: 'info', win: 'success', loss: 'error', failed: 'default', skipped: 'default' };

function OwnResultChip({ execution }: { execution: CustomerExecution }) {
  const translate = useTranslate();
  const result = ownResultOf(execution);
  return <Chip size="small" variant="outlined" color={resultColor[result]} label={translate(`resources.orders.ownResults.${result}`)} />;
}

/** The customer's own 'Order & Alert' (/customer/orders, read-only): their part of each order, its own result and realized PnL. */
export function CustomerOrderList() {
  const translate = useTranslate();
  return (
    <SpecList resource="customerOrders" filters={FILTERS}>
      <ListHeader title={translate('resources.orders.title')} />
      <Stack direction="row" spacing={1}>
        <MonthFilter />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<CustomerExecution>>
        <Column label="resources.orders.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="orderId" label="resources.orders.fields.id" disableSort />
        <Column label="resources.orders.fields.symbol" disableSort render={(row) => row.strategy.symbol} />
        <Column label="resources.orders.fields.side" disableSort render={(row) => entryDirectionLabels[row.side as EntryDirection] ?? ''} />
        <Column label="resources.orders.fields.ownResult" disableSort render={(row) => <OwnResultChip execution={row} />} />
        <Column label="resources.orders.fields.realizedPnl" disableSort render={(row) => <UsdtAmount value={row.realizedPnl} redAtZero={false} />} />
        <Column label="resources.orders.fields.datetimeInserted" disableSort render={(row) => `${formatDate(row.datetimeInserted)} ${formatTime(row.datetimeInserted)}`} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
