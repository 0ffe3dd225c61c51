import HealthAndSafety from '@mui/icons-material/HealthAndSafety';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { AccountHealthList } from './AccountHealthList';

export const accountHealth: BackOfficeModule = {
  resource: { name: 'accountHealth', icon: HealthAndSafety, list: AccountHealthList },
  routes: { accountHealth: 'list' },
};
