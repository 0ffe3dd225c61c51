import TuneIcon from '@mui/icons-material/Tune';
import type { Strategy } from '../../../contract/api/strategy';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { StrategyCreate } from './StrategyCreate';
import { StrategyEdit } from './StrategyEdit';
import { StrategyList } from './StrategyList';

export const strategies: BackOfficeModule = {
  resource: {
    name: 'strategies',
    icon: TuneIcon,
    recordRepresentation: (record: Strategy) => `${record.id} ${record.symbol}`,
    list: StrategyList,
    create: StrategyCreate,
    edit: StrategyEdit,
  },
  routes: {
    adminStrategies: 'list',
    employeeStrategies: 'list',
    adminPreset: 'create',
    employeePreset: 'create',
    strategyEdit: 'edit',
  },
};
