import { useState } from 'react';
import Grid from '@mui/material/Grid';
import { TextInput, useInput, useTranslate } from 'react-admin';
import { useWatch, useFormContext } from 'react-hook-form';
import type { Country } from '../../../contract/api/country';
import { CountryPicker } from '../CountryPicker';
import { phoneWithDialCode } from '../formInput';

/**
 * The country picker (form value: the country id) and the mobile number that keeps its dial code
 * (spec 5: digits only, the prefix cannot be deleted).
 */
export function CountryPhoneInputs({ source, countryLabel, phoneLabel }: { source: string; countryLabel: string; phoneLabel: string }) {
  const translate = useTranslate();
  const [country, setCountry] = useState<Country | null>(null);
  const { setValue } = useFormContext();
  const phone: unknown = useWatch({ name: `${source}.phone` });
  const countryInput = useInput({ source: `${source}.countryId` });
  const error = countryInput.fieldState.error?.message;
  const dialCode = country?.dialCode ?? '';
  return (
    <>
      <Grid size={{ xs: 12, sm: 6 }}>
        <CountryPicker
          label={countryLabel}
          value={country}
          size="small"
          error={error !== undefined}
          helperText={error === undefined ? ' ' : translate(error, { _: error })}
          onChange={(next) => {
            setCountry(next);
            countryInput.field.onChange(next?.id ?? null);
            setValue(`${source}.phone`, phoneWithDialCode(typeof phone === 'string' ? phone : '', next?.dialCode ?? ''), { shouldValidate: countryInput.formState.isSubmitted });
          }}
        />
      </Grid>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextInput size="small" source={`${source}.phone`} label={phoneLabel} fullWidth parse={(value: string) => phoneWithDialCode(value, dialCode)} />
      </Grid>
    </>
  );
}
