import { useTranslate } from 'ra-core';
import { SelectFilter } from './SelectFilter';
import { useAllCountries } from './useAllCountries';

/** Country filter by id, with 'All Countries'. */
export function CountryFilter({ source = 'country', label }: { source?: string; label?: string }) {
  const translate = useTranslate();
  const { data } = useAllCountries();
  const choices = (data ?? []).map((country) => ({ value: String(country.id), label: country.name }));
  return <SelectFilter source={source} label={label ?? translate('app.lists.country')} allLabel={translate('app.lists.allCountries')} choices={choices} />;
}
