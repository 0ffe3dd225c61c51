import Stack from '@mui/material/Stack';
import type { CountryRef } from '../../../contract/api/country';

/** A country with its flag, in a table cell. */
export function CountryCell({ country }: { country: CountryRef | null }) {
  if (!country) return null;
  return (
    <Stack direction="row" spacing={1} alignItems="center">
      <img src={country.imageUrl} alt="" width={20} height={15} style={{ objectFit: 'cover', borderRadius: 2 }} />
      <span>{country.name}</span>
    </Stack>
  );
}
