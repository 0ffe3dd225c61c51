import Chip from '@mui/material/Chip';
import { useTranslate } from 'react-admin';

/** Yes / No / Not checked; `good` says which answer is healthy. */
export function HealthFlag({ value, good }: { value: boolean | null; good: boolean }) {
  const translate = useTranslate();
  if (value === null) return <Chip size="small" variant="outlined" label={translate('resources.accountHealth.unknown')} />;
  return <Chip size="small" variant="outlined" color={value === good ? 'success' : 'error'} label={translate(value ? 'resources.accountHealth.yes' : 'resources.accountHealth.no')} />;
}
