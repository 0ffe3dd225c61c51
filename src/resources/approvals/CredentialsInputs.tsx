import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { ENABLED_EXCHANGES, exchangeLabels } from '../../../contract/enums';
import type { NewCredentials } from '../../dataProvider/resources/approvals';

export interface CredentialValues {
  platformType: number | '';
  apiKey: string;
  apiSecret: string;
  passphrase: string;
}

/** New credentials are sent only when a key and a secret were typed (spec 4: "saved if changed"). */
export function newCredentials(values: CredentialValues): NewCredentials | undefined {
  if (values.apiKey.trim() === '' || values.apiSecret.trim() === '' || values.platformType === '') return undefined;
  return { platformType: values.platformType, apiKey: values.apiKey.trim(), apiSecret: values.apiSecret.trim(), passphrase: values.passphrase.trim() || null };
}

/** What is stored already: the masked key, and whether a secret and a passphrase exist (they are never sent back). */
export interface StoredCredentials {
  apiKey: string | null;
  hasApiSecret: boolean;
  hasPassphrase: boolean;
}

const STORED_SECRET = '••••••••';

/** Exchange and API credentials of a pending customer; what is stored shows masked as placeholders, nothing when nothing is stored. */
export function CredentialsInputs(props: { values: CredentialValues; stored: StoredCredentials; disabled: boolean; onChange: (patch: Partial<CredentialValues>) => void }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.fields.${key}`);
  const text = (key: 'apiKey' | 'apiSecret' | 'passphrase', placeholder?: string) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <TextField size="small" fullWidth label={t(key)} placeholder={placeholder} value={props.values[key]} disabled={props.disabled} onChange={(e) => props.onChange({ [key]: e.target.value })} slotProps={{ inputLabel: { shrink: true } }} />
    </Grid>
  );
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, sm: 6 }}>
        <TextField select size="small" fullWidth label={t('platformType')} value={props.values.platformType} disabled={props.disabled} onChange={(e) => props.onChange({ platformType: Number(e.target.value) })}>
          {ENABLED_EXCHANGES.map((exchange) => (
            <MenuItem key={exchange} value={exchange}>
              {exchangeLabels[exchange]}
            </MenuItem>
          ))}
        </TextField>
      </Grid>
      {text('apiKey', props.stored.apiKey ?? undefined)}
      {text('apiSecret', props.stored.hasApiSecret ? STORED_SECRET : undefined)}
      {text('passphrase', props.stored.hasPassphrase ? STORED_SECRET : undefined)}
    </Grid>
  );
}
