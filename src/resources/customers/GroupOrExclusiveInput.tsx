import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { CustomerGroup, customerGroupLabels } from '../../../contract/enums';

/** The groups offered when adding or approving a customer: every group but Exclusive (a checkbox instead). */
export const OFFERED_GROUPS = Object.values(CustomerGroup).filter((group) => group !== CustomerGroup.Exclusive);

export interface GroupChoice {
  group: CustomerGroup | '';
  isExclusive: boolean;
}

/** 'Please select group or choose Exclusive' when neither is chosen. */
export function groupChoiceError(choice: GroupChoice): string | undefined {
  return choice.group === '' && !choice.isExclusive ? 'app.validation.selectGroupOrExclusive' : undefined;
}

/** Group dropdown plus 'Is an exclusive customer?': ticking sets Exclusive and disables the dropdown. */
export function GroupOrExclusiveInput(props: { value: GroupChoice; onChange: (value: GroupChoice) => void; error?: string; disabled?: boolean }) {
  const translate = useTranslate();
  const { value } = props;
  return (
    <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} alignItems={{ sm: 'center' }}>
      <TextField
        select
        size="small"
        sx={{ minWidth: 200 }}
        label={translate('resources.customers.fields.group')}
        value={value.isExclusive ? CustomerGroup.Exclusive : value.group}
        disabled={props.disabled || value.isExclusive}
        error={props.error !== undefined}
        helperText={props.error ? translate(props.error) : undefined}
        onChange={(e) => props.onChange({ group: Number(e.target.value) as CustomerGroup, isExclusive: false })}
      >
        {(value.isExclusive ? [...OFFERED_GROUPS, CustomerGroup.Exclusive] : OFFERED_GROUPS).map((group) => (
          <MenuItem key={group} value={group}>
            {customerGroupLabels[group]}
          </MenuItem>
        ))}
      </TextField>
      <FormControlLabel
        label={translate('resources.customers.fields.isExclusive')}
        control={
          <Checkbox
            checked={value.isExclusive}
            disabled={props.disabled}
            onChange={(e) => props.onChange(e.target.checked ? { group: CustomerGroup.Exclusive, isExclusive: true } : { group: '', isExclusive: false })}
          />
        }
      />
    </Stack>
  );
}
