import { useEffect, useState } from 'react';
import TextField from '@mui/material/TextField';
import { useListFilterContext } from 'ra-core';

/** A typed filter of a list (`source` is the spec's query parameter); the list follows after a short pause. */
export function TextFilter(props: { source: string; label: string; placeholder?: string; parse?: (value: string) => string }) {
  const { filterValues, setFilters } = useListFilterContext();
  const raw: unknown = filterValues[props.source];
  const current = typeof raw === 'string' ? raw : '';
  const [text, setText] = useState(current);
  useEffect(() => setText(current), [current]);
  return (
    <TextField
      size="small"
      label={props.label}
      placeholder={props.placeholder}
      value={text}
      onChange={(event) => {
        const value = props.parse ? props.parse(event.target.value) : event.target.value;
        setText(value);
        // Debounced by the list (SpecList), so typing does not fetch on every key.
        setFilters({ ...filterValues, [props.source]: value }, undefined, true);
      }}
    />
  );
}
