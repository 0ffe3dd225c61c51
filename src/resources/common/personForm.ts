import type { AccountCreateBody } from '../../../contract/api/account';
import type { Country } from '../../../contract/api/country';
import type { AccountType, Gender } from '../../../contract/enums';
import { validation } from '../../../contract/messages';
import { hasPhoneNumber } from '../../components/formInput';

/** The personal fields every add form shares (add customer, agent, employee). */
export interface PersonValues {
  firstName: string;
  lastName: string;
  email: string;
  age: string;
  phone: string;
  country: Country | null;
  gender: number | '';
  password: string;
}

export const emptyPerson: PersonValues = { firstName: '', lastName: '', email: '', age: '', phone: '', country: null, gender: '', password: '' };

export type PersonErrors = Partial<Record<keyof PersonValues, string>>;

/**
 * Required personal fields (spec 5). A missing field is marked with `true`-ish text ('required');
 * the country has its own text, 'Please select country'.
 */
export function personErrors(values: PersonValues, needsPassword: boolean): PersonErrors {
  const errors: PersonErrors = {};
  for (const key of ['firstName', 'lastName', 'email', 'age'] as const) {
    if (values[key].trim() === '') errors[key] = 'required';
  }
  if (!values.country) errors.country = validation.selectCountry;
  if (!hasPhoneNumber(values.phone, values.country?.dialCode ?? '')) errors.phone = 'required';
  if (values.gender === '') errors.gender = 'required';
  if (needsPassword && values.password === '') errors.password = 'required';
  return errors;
}

/** The account body of POST /api/account for these values. */
export function accountBody(values: PersonValues, accountType: AccountType): AccountCreateBody {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    age: Number(values.age),
    phone: values.phone,
    countryId: values.country?.id ?? 0,
    gender: Number(values.gender) as Gender,
    password: values.password,
    accountType,
  };
}
