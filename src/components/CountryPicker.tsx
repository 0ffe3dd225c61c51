import { useEffect, useState } from 'react';
import Autocomplete from '@mui/material/Autocomplete';
import Box from '@mui/material/Box';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'ra-core';
import type { Country } from '../../contract/api/country';
import { COUNTRY_PAGE_SIZE } from '../../contract/constants';
import { ui } from '../../contract/messages';
import { accountApi } from '../authProvider/api';

const SEARCH_DELAY_MS = 250;

export function CountryFlag({ country, size = 20 }: { country: Pick<Country, 'imageUrl' | 'name'>; size?: number }) {
  return <img src={country.imageUrl} alt="" width={Math.round(size * 1.33)} height={size} style={{ borderRadius: 2, objectFit: 'cover' }} />;
}

interface CountryPickerProps {
  value: Country | null;
  onChange: (country: Country | null) => void;
  label: string;
  error?: boolean;
  helperText?: string;
  size?: 'small' | 'medium';
}

/** Country and dial-code picker over POST /api/country/search (public; 32 rows per search). */
export function CountryPicker({ value, onChange, label, error, helperText, size }: CountryPickerProps) {
  const translate = useTranslate();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Country[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(() => {
      setLoading(true);
      accountApi
        .searchCountries({ filter: text ? [{ name: 'name', value: text }] : [], pageSize: COUNTRY_PAGE_SIZE, pageIndex: 0 }, controller.signal)
        .then((page) => {
          setOptions(page.data);
          setFailed(false);
        })
        .catch(() => {
          if (!controller.signal.aborted) setFailed(true);
        })
        .finally(() => setLoading(false));
    }, SEARCH_DELAY_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [text]);

  return (
    <Autocomplete
      options={options}
      value={value}
      loading={loading}
      filterOptions={(all) => all}
      isOptionEqualToValue={(option, selected) => option.id === selected.id}
      getOptionLabel={(option) => `${option.name} (${option.dialCode})`}
      onChange={(_, country) => onChange(country)}
      onInputChange={(_, input, reason) => reason === 'input' && setText(input)}
      noOptionsText={translate('app.ui.other.noResultsFound')}
      renderOption={({ key, ...props }, option) => (
        <Box component="li" key={key} {...props} sx={{ display: 'flex', gap: 1 }}>
          <CountryFlag country={option} />
          <span>{option.name}</span>
          <Box component="span" sx={{ color: 'text.secondary', ml: 'auto' }}>
            {option.dialCode}
          </Box>
        </Box>
      )}
      renderInput={(params) => (
        <TextField
          {...params}
          label={label}
          size={size}
          error={error || failed}
          helperText={failed ? ui.other.countriesFailed : helperText}
          InputProps={{ ...params.InputProps, startAdornment: value ? <CountryFlag country={value} /> : params.InputProps.startAdornment }}
        />
      )}
    />
  );
}
