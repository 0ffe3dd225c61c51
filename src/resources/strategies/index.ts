import TuneIcon from '@mui/icons-material/Tune';
import type { Strategy } from '../../../contract/api/strategy';
import type { BackOfficeModule } from '../../layout/backOfficeModule';
import { StrategyList } from './StrategyList';
import { StrategyPage } from './StrategyPage';
import { strategyEndpoints } from './endpoints';

export const strategies: BackOfficeModule = {
  resource: { name: 'strategies', icon: TuneIcon, recordRepresentation: (record: Strategy) => `${record.id} ${record.symbol}` },
  screens: {
    adminPreset: StrategyPage,
    employeePreset: StrategyPage,
    strategyEdit: StrategyPage,
    adminStrategies: StrategyList,
    employeeStrategies: StrategyList,
  },
  endpoints: strategyEndpoints,
};
