import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import { useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { Order } from '../../../contract/api/order';
import { EntryDirection, OrderStatus, entryDirectionLabels, orderEntryTypeLabels, orderStatusLabels, type OrderEntryType } from '../../../contract/enums';
import { UsdtAmount } from '../../components/UsdtAmount';
import { formatDate, formatTime } from '../../components/formatDate';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListHeader } from '../../components/list/ListHeader';
import { ListPagination } from '../../components/list/ListPagination';
import { MonthFilter } from '../../components/list/MonthFilter';
import { ResetFiltersButton } from '../../components/list/ResetFiltersButton';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { linkTo } from '../../pages/routes';
import { OrderCounts } from './OrderCounts';
import { OrderToggle } from './OrderToggle';
import { OrderQualityButton } from '../../components/quality/OrderQualityButton';
import { SymbolFilter } from './SymbolFilter';

/** While a row is being closed, the list is read again this often: the engine closes asynchronously. */
const CLOSING_REFRESH_MS = 2_000;

function followWhileClosing(query: { state: { data?: { data?: Order[] } } }): number | false {
  return query.state.data?.data?.some((order) => order.closing) ? CLOSING_REFRESH_MS : false;
}

/** The list's query parameters (spec 2). */
const FILTERS = ['symbol', 'month'] as const;
const statusColor = { [OrderStatus.Active]: 'info', [OrderStatus.Win]: 'success', [OrderStatus.Loss]: 'error' } as const;
const Column = ListColumn<Order>;

/** 'Order & Alert' (/admin/orders, /employee/orders): pageIndex, symbol and month in the URL; TotalDeal, Win and Loss counts. */
export function OrderList() {
  const translate = useTranslate();
  return (
    <SpecList resource="orders" filters={FILTERS} queryOptions={{ refetchInterval: followWhileClosing }}>
      <ListHeader title={translate('resources.orders.title')} counts={<OrderCounts />} />
      <Stack direction="row" spacing={1} flexWrap="wrap" useFlexGap>
        <SymbolFilter />
        <MonthFilter />
        <ResetFiltersButton />
      </Stack>
      <ListDataTable<Order>>
        <Column label="resources.orders.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column source="id" label="resources.orders.fields.id" disableSort />
        <Column label="resources.orders.fields.strategy" disableSort render={(row) => <Link to={linkTo('strategyEdit', { id: row.strategy.id })}>{row.strategy.id}</Link>} />
        <Column label="resources.orders.fields.symbol" disableSort render={(row) => row.strategy.symbol} />
        <Column label="resources.orders.fields.side" disableSort render={(row) => entryDirectionLabels[row.side as EntryDirection] ?? row.side} />
        <Column label="resources.orders.fields.entryType" disableSort render={(row) => orderEntryTypeLabels[row.entryType as OrderEntryType] ?? row.entryType} />
        <Column
          label="resources.orders.fields.status"
          disableSort
          render={(row) => <Chip size="small" variant="outlined" color={statusColor[row.status as OrderStatus] ?? 'default'} label={orderStatusLabels[row.status as OrderStatus] ?? row.status} />}
        />
        <Column label="resources.orders.fields.realizedPnl" disableSort render={(row) => <UsdtAmount value={row.realizedPnl} redAtZero={false} />} />
        <Column label="resources.orders.fields.datetimeInserted" disableSort render={(row) => `${formatDate(row.datetimeInserted)} ${formatTime(row.datetimeInserted)}`} />
        <Column label="resources.orders.fields.toggle" disableSort render={(row) => <OrderToggle order={row} />} />
        <Column label="app.quality.title" disableSort render={(row) => <OrderQualityButton orderId={row.id} />} />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
