import ReceiptLong from '@mui/icons-material/ReceiptLong';
import type { Order } from '../../../contract/api/order';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { OrderList } from './OrderList';

export const orders: BackOfficeModule = {
  resource: { name: 'orders', icon: ReceiptLong, recordRepresentation: (record: Order) => `#${record.id} ${record.strategy.symbol}`, list: OrderList },
  routes: { adminOrders: 'list', employeeOrders: 'list' },
};
