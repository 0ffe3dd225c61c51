import Checkbox from '@mui/material/Checkbox';
import FormControlLabel from '@mui/material/FormControlLabel';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useTranslate } from 'react-admin';
import { CustomerGroup, customerGroupLabels } from '../../../contract/enums';
import { ExclusiveCustomerInput } from './ExclusiveCustomerInput';
import { FieldError } from './FieldError';
import { useStrategyForm } from './StrategyFormContext';
import { isGroupSelectable } from './strategyFormRules';
import { GROUP_CHOICES } from './strategyFormValues';

/** The groups a strategy trades for, each with its invest amount in $ or quantity. */
export function StrategyGroupsSection() {
  const { values, errors, change, readOnly } = useStrategyForm();
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.strategies.${key}`);
  return (
    <Stack spacing={1}>
      {GROUP_CHOICES.map((group) => {
        const row = values.groups.find((item) => item.group === group);
        const error = errors[`group.${group}`];
        return (
          <Stack key={group} direction={{ xs: 'column', sm: 'row' }} spacing={1} alignItems={{ sm: 'center' }}>
            <FormControlLabel
              sx={{ minWidth: 130 }}
              label={customerGroupLabels[group]}
              control={
                <Checkbox
                  checked={row !== undefined}
                  disabled={readOnly || !isGroupSelectable(values, group)}
                  onChange={() => change({ field: 'toggleGroup', value: group })}
                />
              }
            />
            {row !== undefined && (
              <>
                <TextField
                  size="small"
                  label={t('fields.investDollar')}
                  value={row.dollar}
                  disabled={readOnly || row.quantity !== ''}
                  error={error !== undefined}
                  onChange={(e) => change({ field: 'groupAmount', group, kind: 'dollar', value: e.target.value.replace(/[^\d.]/g, '') })}
                />
                <TextField
                  size="small"
                  label={t('fields.investQuantity')}
                  value={row.quantity}
                  disabled={readOnly || row.dollar !== ''}
                  error={error !== undefined}
                  onChange={(e) => change({ field: 'groupAmount', group, kind: 'quantity', value: e.target.value.replace(/[^\d.]/g, '') })}
                />
                <FieldError message={error} />
              </>
            )}
          </Stack>
        );
      })}
      {values.groups.some((row) => row.group === CustomerGroup.Exclusive) && <ExclusiveCustomerInput />}
      <FieldError message={errors.groups} />
    </Stack>
  );
}
