import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useInput, useTranslate } from 'react-admin';
import { CustomerGroup, customerGroupLabels } from '../../../contract/enums';

/** The groups offered when adding or approving a customer: every group but Exclusive (a checkbox instead). */
export const OFFERED_GROUPS = Object.values(CustomerGroup).filter((group) => group !== CustomerGroup.Exclusive);

export interface GroupChoice {
  group: CustomerGroup | null;
  isExclusive: boolean;
}

/** Spec 4: ticking 'Is an exclusive customer?' sets group Exclusive and disables the dropdown; unticking clears it. */
export function choiceAfterExclusive(isExclusive: boolean): GroupChoice {
  return isExclusive ? { group: CustomerGroup.Exclusive, isExclusive: true } : { group: null, isExclusive: false };
}

/** Group dropdown plus 'Is an exclusive customer?'. */
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
        value={value.group ?? ''}
        disabled={props.disabled || value.isExclusive}
        error={props.error !== undefined}
        helperText={props.error ? translate(props.error, { _: props.error }) : undefined}
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
        control={<Checkbox checked={value.isExclusive} disabled={props.disabled} onChange={(e) => props.onChange(choiceAfterExclusive(e.target.checked))} />}
      />
    </Stack>
  );
}

/** The same input bound to a react-admin form (`customer.group` and `customer.isExclusive`). */
export function GroupOrExclusiveFormInput({ source }: { source: string }) {
  const group = useInput({ source: `${source}.group` });
  const isExclusive = useInput({ source: `${source}.isExclusive` });
  const value: GroupChoice = { group: (group.field.value as CustomerGroup | null) ?? null, isExclusive: isExclusive.field.value === true };
  return (
    <GroupOrExclusiveInput
      value={value}
      error={group.fieldState.error?.message}
      onChange={(next) => {
        isExclusive.field.onChange(next.isExclusive);
        group.field.onChange(next.group);
      }}
    />
  );
}
