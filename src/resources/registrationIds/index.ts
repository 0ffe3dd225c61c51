import Key from '@mui/icons-material/Key';
import type { RegistrationIdItem } from '../../../contract/api/registrationId';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { RegistrationIdList } from './RegistrationIdList';

export const registrationIds: BackOfficeModule = {
  resource: { name: 'registrationIds', icon: Key, recordRepresentation: (record: RegistrationIdItem) => record.code, list: RegistrationIdList },
  routes: { agentRegistrationIds: 'list' },
};
