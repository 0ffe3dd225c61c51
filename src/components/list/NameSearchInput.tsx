import { useEffect, useRef, useState } from 'react';
import Search from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useListFilterContext, useTranslate } from 'ra-core';
import { NAME_SEARCH_DEBOUNCE_MS } from '../../../contract/constants';

/** The list filter holding a name search; it is not a spec query parameter, so it stays out of the URL. */
export const NAME_SEARCH_FILTER = 'q';

/** The name search box: searches one second after the last keystroke (spec 9). */
export function NameSearchInput() {
  const translate = useTranslate();
  const { filterValues, setFilters } = useListFilterContext();
  const current = typeof filterValues[NAME_SEARCH_FILTER] === 'string' ? (filterValues[NAME_SEARCH_FILTER] as string) : '';
  const [text, setText] = useState(current);
  const latest = useRef({ filterValues, setFilters, current });
  latest.current = { filterValues, setFilters, current };
  // A reset (or another list state) replaces what was typed.
  useEffect(() => setText(current), [current]);
  useEffect(() => {
    if (text === latest.current.current) return;
    const timer = setTimeout(() => latest.current.setFilters({ ...latest.current.filterValues, [NAME_SEARCH_FILTER]: text }, undefined, false), NAME_SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <TextField
      size="small"
      label={translate('app.lists.searchByName')}
      value={text}
      onChange={(event) => setText(event.target.value)}
      slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> } }}
    />
  );
}
