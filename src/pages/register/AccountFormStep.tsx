import { useState, type FormEvent } from 'react';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'ra-core';
import type { Country } from '../../../contract/api/country';
import { Gender } from '../../../contract/enums';
import { ui } from '../../../contract/messages';
import { accountApi } from '../../authProvider/api';
import { CountryPicker } from '../../components/CountryPicker';
import { ageInput, capitalizeWords, phoneWithDialCode } from '../../components/formInput';
import { errorMessage } from '../../dataProvider/errors';
import { emptyRegistrationForm, registrationError, type RegistrationForm } from './registrationForm';

interface AccountFormStepProps {
  registrationId: string;
  onRegistered: (tempAccountId: string) => void;
  onBack: () => void;
}

/** Step 2: the account form; POST /api/security/register answers the temporary account id. */
export function AccountFormStep({ registrationId, onRegistered, onBack }: AccountFormStepProps) {
  const translate = useTranslate();
  const [form, setForm] = useState<RegistrationForm>(emptyRegistrationForm);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const set = <K extends keyof RegistrationForm>(key: K, value: RegistrationForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  const chooseCountry = (country: Country | null) =>
    setForm((current) => ({ ...current, country, phone: country ? phoneWithDialCode(current.phone.replace(current.country?.dialCode ?? '', ''), country.dialCode) : '' }));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = registrationError(form);
    setError(problem);
    if (problem || !form.country) return;
    setBusy(true);
    try {
      const result = await accountApi.register({
        registrationId,
        firstName: form.firstName.trim(),
        lastName: form.lastName.trim(),
        email: form.email.trim(),
        age: Number(form.age),
        gender: form.gender as Gender,
        countryId: form.country.id,
        phone: form.phone,
        password: form.password1,
      });
      onRegistered(result.tempAccountId);
    } catch (failure) {
      setError(errorMessage(failure, ui.fallback.unexpectedTryAgain));
    } finally {
      setBusy(false);
    }
  };

  const half = { gridColumn: { xs: 'span 2', sm: 'span 1' } };
  const full = { gridColumn: 'span 2' };
  return (
    <Box component="form" noValidate onSubmit={(event) => void submit(event)} sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 2 }}>
      <TextField sx={half} label={translate('app.register.firstName')} value={form.firstName} onChange={(e) => set('firstName', capitalizeWords(e.target.value))} />
      <TextField sx={half} label={translate('app.register.lastName')} value={form.lastName} onChange={(e) => set('lastName', capitalizeWords(e.target.value))} />
      <TextField sx={full} type="email" label={translate('app.register.email')} value={form.email} onChange={(e) => set('email', e.target.value)} />
      <TextField
        sx={half}
        type="number"
        label={translate('app.register.age')}
        value={form.age}
        onChange={(e) => set('age', ageInput(e.target.value))}
        slotProps={{ htmlInput: { min: 0 } }}
      />
      <TextField sx={half} select label={translate('app.register.gender')} value={form.gender} onChange={(e) => set('gender', Number(e.target.value))}>
        <MenuItem value={0} disabled>
          {translate('app.register.selectGender')}
        </MenuItem>
        {[Gender.Male, Gender.Female].map((gender) => (
          <MenuItem key={gender} value={gender}>
            {translate(`app.genders.${gender}`)}
          </MenuItem>
        ))}
      </TextField>
      <Box sx={full}>
        <CountryPicker label={translate('app.register.country')} value={form.country} onChange={chooseCountry} />
      </Box>
      <TextField
        sx={full}
        type="tel"
        label={translate('app.register.phone')}
        value={form.phone}
        disabled={!form.country}
        onChange={(e) => set('phone', phoneWithDialCode(e.target.value, form.country?.dialCode ?? ''))}
      />
      <TextField sx={half} type="password" autoComplete="new-password" label={translate('app.register.password')} value={form.password1} onChange={(e) => set('password1', e.target.value)} />
      <TextField
        sx={half}
        type="password"
        autoComplete="new-password"
        label={translate('app.register.confirmPassword')}
        value={form.password2}
        onChange={(e) => set('password2', e.target.value)}
      />
      {error ? (
        <Alert severity="error" sx={full}>
          {error}
        </Alert>
      ) : null}
      <Button sx={half} onClick={onBack} disabled={busy}>
        {translate('app.register.back')}
      </Button>
      <Button sx={half} type="submit" variant="contained" size="large" disabled={busy}>
        {translate('app.register.submit')}
      </Button>
    </Box>
  );
}
