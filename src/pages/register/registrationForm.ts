import type { Country } from '../../../contract/api/country';
import { ui, validation } from '../../../contract/messages';
import { hasPhoneNumber } from '../../components/formInput';

export interface RegistrationForm {
  firstName: string;
  lastName: string;
  email: string;
  age: string;
  gender: number;
  country: Country | null;
  phone: string;
  password1: string;
  password2: string;
}

export const emptyRegistrationForm: RegistrationForm = {
  firstName: '',
  lastName: '',
  email: '',
  age: '',
  gender: 0,
  country: null,
  phone: '',
  password1: '',
  password2: '',
};

/** Spec 5 "Registration form": every field required, gender nonzero, a phone beyond its dial code, equal passwords. */
export function registrationError(form: RegistrationForm): string | undefined {
  const dialCode = form.country?.dialCode ?? '';
  const complete =
    form.firstName.trim() &&
    form.lastName.trim() &&
    form.email.trim() &&
    form.age !== '' &&
    form.gender !== 0 &&
    form.country &&
    hasPhoneNumber(form.phone, dialCode) &&
    form.password1;
  if (!complete) return ui.form.completeRequired;
  if (form.password1 !== form.password2) return validation.passwordsDoNotMatchReenter;
  return undefined;
}
