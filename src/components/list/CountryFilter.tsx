import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useListFilterContext, useTranslate } from 'ra-core';
import { useEffect, useState } from 'react';
import type { Country } from '../../../contract/api/country';
import { COUNTRY_PAGE_SIZE } from '../../../contract/constants';
import { wholeNumber } from '../../dataProvider/paging';

const SEARCH_DELAY_MS = 250;

/** The text typed, once typing has paused. */
function useSettledText(text: string): string {
  const [settled, setSettled] = useState(text);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(text), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return settled;
}

/** The first 32 countries matching the search, read only while the list is open. */
function useCountryOptions(open: boolean, search: string) {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ['countries', 'search', search],
    enabled: open,
    staleTime: Infinity,
    queryFn: ({ signal }) =>
      dataProvider.getList<Country>('countries', { pagination: { page: 1, perPage: COUNTRY_PAGE_SIZE }, sort: { field: 'name', order: 'ASC' }, filter: search ? { name: search } : {}, signal }),
  });
}

/** The country the list is filtered by (from the URL), by its id. */
function useChosenCountry(id: number | undefined) {
  const dataProvider = useDataProvider();
  return useQuery({
    queryKey: ['countries', 'one', id],
    enabled: id !== undefined,
    staleTime: Infinity,
    queryFn: () => dataProvider.getOne<Country>('countries', { id: id! }).then((answer) => answer.data),
  });
}

/**
 * Country filter by id (the spec's `country` parameter). The countries load when the list opens, 32
 * at a time, and typing searches them; empty is 'All Countries' (issue 28: not every page at once).
 */
export function CountryFilter({ source = 'country', label }: { source?: string; label?: string }) {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListFilterContext();
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const search = useSettledText(text);
  const options = useCountryOptions(open, search);
  const chosen = useChosenCountry(wholeNumber(filterValues[source]));
  return (
    <Autocomplete<Country>
      size="small"
      sx={{ minWidth: 200 }}
      open={open}
      onOpen={() => setOpen(true)}
      onClose={() => setOpen(false)}
      options={options.data?.data ?? []}
      loading={options.isFetching}
      value={chosen.data ?? null}
      filterOptions={(all) => all}
      getOptionLabel={(country) => country.name}
      isOptionEqualToValue={(option, value) => option.id === value.id}
      onInputChange={(_, input, reason) => reason === 'input' && setText(input)}
      onChange={(_, country) => {
        setText('');
        setFilters({ ...filterValues, [source]: country ? String(country.id) : '' }, undefined, false);
      }}
      noOptionsText={translate('app.ui.other.noResultsFound')}
      renderInput={(params) => (
        <TextField {...params} label={label ?? translate('app.lists.country')} placeholder={translate('app.lists.allCountries')} slotProps={{ inputLabel: { shrink: true } }} />
      )}
    />
  );
}
