import { useTranslate } from 'react-admin';
import { SelectFilter } from './SelectFilter';
import { useCountries } from './useCountries';

/** Country filter by id, with 'All Countries'. */
export function CountryFilter({ value, onChange, label }: { value: string | undefined; onChange: (value: string) => void; label?: string }) {
  const translate = useTranslate();
  const { data } = useCountries();
  const options = (data ?? []).map((country) => ({ value: String(country.id), label: country.name }));
  return <SelectFilter label={label ?? translate('app.lists.country')} allLabel={translate('app.lists.allCountries')} value={value} options={options} onChange={onChange} />;
}
