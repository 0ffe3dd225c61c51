import { AccountType } from '../../../contract/enums';
import { linkTo } from '../../pages/routes';

/** The strategy list of the signed-in role (admins and employees have their own URL). */
export function strategyListPath(accountType: AccountType): string {
  return linkTo(accountType === AccountType.Employee ? 'employeeStrategies' : 'adminStrategies');
}

/** The settings page for a new strategy of the signed-in role. */
export function strategyPresetPath(accountType: AccountType): string {
  return linkTo(accountType === AccountType.Employee ? 'employeePreset' : 'adminPreset');
}

export function strategyEditPath(id: string | number): string {
  return linkTo('strategyEdit', { id });
}
