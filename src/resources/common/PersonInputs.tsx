import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { Gender, genderLabels } from '../../../contract/enums';
import { CountryPicker } from '../../components/CountryPicker';
import { ageInput, capitalizeWords, phoneWithDialCode } from '../../components/formInput';
import type { PersonErrors, PersonValues } from './personForm';

/** First and last name (capitalised), email, age, country with dial code, mobile, gender, password. */
export function PersonInputs(props: { values: PersonValues; errors: PersonErrors; onChange: (patch: Partial<PersonValues>) => void; withPassword: boolean }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.lists.person.${key}`);
  const { values, errors, onChange } = props;
  const text = (key: 'firstName' | 'lastName' | 'email', transform: (value: string) => string = (v) => v) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <TextField size="small" fullWidth required label={t(key)} value={values[key]} error={Boolean(errors[key])} onChange={(e) => onChange({ [key]: transform(e.target.value) })} />
    </Grid>
  );
  return (
    <Grid container spacing={2}>
      {text('firstName', capitalizeWords)}
      {text('lastName', capitalizeWords)}
      {text('email')}
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField size="small" fullWidth required type="number" label={t('age')} value={values.age} error={Boolean(errors.age)} onChange={(e) => onChange({ age: ageInput(e.target.value) })} />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CountryPicker
          label={t('country')}
          value={values.country}
          error={Boolean(errors.country)}
          helperText={errors.country}
          onChange={(country) => onChange({ country, phone: phoneWithDialCode(values.phone, country?.dialCode ?? '') })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField
          size="small"
          fullWidth
          required
          label={t('phone')}
          value={values.phone}
          error={Boolean(errors.phone)}
          onChange={(e) => onChange({ phone: phoneWithDialCode(e.target.value, values.country?.dialCode ?? '') })}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField select size="small" fullWidth required label={t('gender')} value={values.gender} error={Boolean(errors.gender)} onChange={(e) => onChange({ gender: Number(e.target.value) })}>
          {Object.values(Gender).map((gender) => (
            <MenuItem key={gender} value={gender}>
              {genderLabels[gender]}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      {props.withPassword && (
        <Grid size={{ xs: 12, sm: 6 }}>
          <TextField size="small" fullWidth required type="password" label={t('password')} value={values.password} error={Boolean(errors.password)} onChange={(e) => onChange({ password: e.target.value })} />
        </Grid>
      )}
    </Grid>
  );
}
