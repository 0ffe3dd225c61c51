import Autocomplete from '@mui/material/Autocomplete';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslate } from 'react-admin';
import type { customerRoutes } from '../../../contract/api/customer';
import type { RouteData } from '../../../contract/route';
import { useAppDataProvider } from '../../dataProvider';
import { useStrategyForm } from './StrategyFormContext';

type Candidate = RouteData<typeof customerRoutes.searchExclusive>['data'][number];

const nameOf = (candidate: Candidate) => `${candidate.account.firstName} ${candidate.account.lastName}`;

/** The exclusive customer of a strategy: a search among customers of group Exclusive (100 rows). */
export function ExclusiveCustomerInput() {
  const { values, errors, change, readOnly } = useStrategyForm();
  const dataProvider = useAppDataProvider();
  const translate = useTranslate();
  const [text, setText] = useState('');
  const { data } = useQuery({ queryKey: ['customers', 'exclusive', text], queryFn: () => dataProvider.searchExclusiveCustomers(text), enabled: !readOnly });
  const options: Candidate[] = data?.data ?? [];
  const selected = options.find((option) => option.id === values.exclusiveCustomerId) ?? null;
  const error = errors.exclusiveCustomerId;
  return (
    <Autocomplete
      options={options}
      value={selected}
      disabled={readOnly}
      getOptionLabel={nameOf}
      isOptionEqualToValue={(a, b) => a.id === b.id}
      noOptionsText={translate('app.ui.other.noResults')}
      onInputChange={(_, value, reason) => reason === 'input' && setText(value)}
      onChange={(_, option) => change({ field: 'other', patch: { exclusiveCustomerId: option?.id ?? null } })}
      renderInput={(params) => (
        <TextField
          {...params}
          size="small"
          label={translate('resources.strategies.fields.exclusiveCustomerId')}
          placeholder={translate('resources.strategies.placeholders.exclusive')}
          error={error !== undefined}
          helperText={error === undefined ? undefined : translate(error, { _: error })}
        />
      )}
    />
  );
}
