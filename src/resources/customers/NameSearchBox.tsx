import Search from '@mui/icons-material/Search';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useEffect, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { NAME_SEARCH_DEBOUNCE_MS } from '../../../contract/constants';
import { useDebounced } from '../common/useDebounced';

/** The name search box: reports the text one second after the last keystroke (spec 9). */
export function NameSearchBox({ value, onSearch }: { value: string; onSearch: (text: string) => void }) {
  const translate = useTranslate();
  const [text, setText] = useState(value);
  const settled = useDebounced(text, NAME_SEARCH_DEBOUNCE_MS);
  // Only a settled change of the text searches; the latest value and callback are read from a ref.
  const latest = useRef({ value, onSearch });
  latest.current = { value, onSearch };
  useEffect(() => setText(value), [value]);
  useEffect(() => {
    if (settled !== latest.current.value) latest.current.onSearch(settled);
  }, [settled]);
  return (
    <TextField
      size="small"
      label={translate('app.lists.searchByName')}
      value={text}
      onChange={(e) => setText(e.target.value)}
      slotProps={{ input: { startAdornment: <InputAdornment position="start"><Search fontSize="small" /></InputAdornment> } }}
    />
  );
}
