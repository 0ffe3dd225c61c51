import { ENABLED_EXCHANGES } from '../../../contract/enums';
import { validation } from '../../../contract/messages';
import { personErrors, type PersonValues } from '../common/personForm';
import { groupChoiceError, type GroupChoice } from './GroupOrExclusiveInput';

export interface CustomerCreateValues {
  agentId: number | '';
  platformType: number | '';
  exchangeAccountUUID: string;
  apiKey: string;
  apiSecret: string;
  passphrase: string;
  choice: GroupChoice;
}

export const emptyCustomerCreate: CustomerCreateValues = {
  agentId: '',
  platformType: '',
  exchangeAccountUUID: '',
  apiKey: '',
  apiSecret: '',
  passphrase: '',
  choice: { group: '', isExclusive: false },
};

/** Every check of spec 5 "Add customer"; keys are field names, values the texts to show. */
export function customerCreateErrors(person: PersonValues, values: CustomerCreateValues): Record<string, string> {
  const errors: Record<string, string> = { ...personErrors(person, true) } as Record<string, string>;
  if (values.agentId === '') errors.agentId = validation.selectAgent;
  if (values.platformType === '' || !(ENABLED_EXCHANGES as readonly number[]).includes(values.platformType)) errors.platformType = validation.selectExchange;
  for (const key of ['exchangeAccountUUID', 'apiKey', 'apiSecret'] as const) {
    if (values[key].trim() === '') errors[key] = 'required';
  }
  const group = groupChoiceError(values.choice);
  if (group) errors.group = validation.selectGroupOrExclusive;
  return errors;
}
