import { AccountType } from '../../../contract/enums';
import { linkTo } from '../../pages/routes';

/** The strategy list of the signed-in role (admins and employees have their own URL). */
export function strategyListPath(accountType: AccountType): string {
  return linkTo(accountType === AccountType.Employee ? 'employeeStrategies' : 'adminStrategies');
}

export function strategyEditPath(id: string): string {
  return linkTo('strategyEdit', { strategyId: id });
}
