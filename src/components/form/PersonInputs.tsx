import Grid from '@mui/material/Grid';
import { PasswordInput, TextInput, useTranslate, type TranslateFunction } from 'react-admin';
import { Gender, genderLabels } from '../../../contract/enums';
import { ageNumber, capitalizeWords } from '../formInput';
import { CountryPhoneInputs } from './CountryPhoneInputs';
import { ChoiceInput } from './ChoiceInput';
import type { FormFields } from './fieldMessages';

const GENDERS = Object.values(Gender).map((gender) => ({ id: gender, name: genderLabels[gender] }));

/**
 * First and last name (each word capitalised), email, age (never negative), country with its
 * dial code, mobile, gender and optionally the password, under `source` (e.g. 'account.firstName').
 */
export function PersonInputs({ source = 'account', withPassword }: { source?: string; withPassword: boolean }) {
  const translate = useTranslate();
  const label = (key: string) => translate(`app.lists.person.${key}`);
  const half = { xs: 12, sm: 6 } as const;
  return (
    <Grid container columnSpacing={2}>
      <Grid size={half}>
        <TextInput size="small" source={`${source}.firstName`} label={label('firstName')} fullWidth parse={capitalizeWords} />
      </Grid>
      <Grid size={half}>
        <TextInput size="small" source={`${source}.lastName`} label={label('lastName')} fullWidth parse={capitalizeWords} />
      </Grid>
      <Grid size={half}>
        <TextInput size="small" source={`${source}.email`} label={label('email')} type="email" fullWidth />
      </Grid>
      <Grid size={half}>
        <TextInput size="small" source={`${source}.age`} label={label('age')} type="number" fullWidth parse={ageNumber} />
      </Grid>
      <CountryPhoneInputs source={source} countryLabel={label('country')} phoneLabel={label('phone')} />
      <Grid size={half}>
        <ChoiceInput source={`${source}.gender`} label={label('gender')} choices={GENDERS} />
      </Grid>
      {withPassword && (
        <Grid size={half}>
          <PasswordInput size="small" source={`${source}.password`} label={label('password')} fullWidth />
        </Grid>
      )}
    </Grid>
  );
}

/** The personal fields under `source` with their labels, for the form's messages (`labelledResolver`). */
export function personFormFields(translate: TranslateFunction, source = 'account'): FormFields {
  const field = (key: string, choice = false) => ({ label: translate(`app.lists.person.${key}`), choice });
  return {
    [`${source}.firstName`]: field('firstName'),
    [`${source}.lastName`]: field('lastName'),
    [`${source}.email`]: field('email'),
    [`${source}.age`]: field('age'),
    [`${source}.countryId`]: field('country', true),
    [`${source}.phone`]: field('phone'),
    [`${source}.gender`]: field('gender', true),
    [`${source}.password`]: field('password'),
  };
}
