import Webhook from '@mui/icons-material/Webhook';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { WebhookGroupList } from './WebhookGroupList';

export const webhookGroups: BackOfficeModule = {
  resource: { name: 'webhookGroups', icon: Webhook, list: WebhookGroupList },
  routes: { webhookSettings: 'list' },
};
