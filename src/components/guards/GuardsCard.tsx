import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, NumberInput, SaveButton, SelectInput, useCanAccess, useTranslate } from 'react-admin';
import { errorMessage } from '../../dataProvider';
import { useResultPopup } from '../ResultPopupProvider';

/** The contract's rule for a guard (a whole number from 1 to `max`, or empty), checked before the request; the server checks it again. */
export const wholeUpTo = (max: number, message: string) => (value: unknown): string | undefined => {
  if (value === null || value === undefined || value === '') return undefined;
  const ok = typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max;
  return ok ? undefined : message;
};

export interface GuardField<K extends string, T> {
  source: K;
  label: string;
  /** Under the field; from the guards read when it depends on them (a default the server answers). */
  help: string | ((guards: T) => string);
  /** A number from 1 to `max` (or empty), `message` when it is not; or one of `choices`. */
  max?: number;
  message?: string;
  choices?: Array<{ id: string; name: string }>;
}

type GuardValues<K extends string> = Record<K, number | string | null>;

interface GuardsCardProps<K extends string, T extends GuardValues<K>> {
  testId: string;
  /** The react-admin resource whose 'guard' action lets a person change them. */
  resource: 'strategies' | 'customers';
  queryKey: unknown[];
  read: () => Promise<T>;
  /** Every field's value (an emptied one null): the guards a PUT replaces. */
  save: (values: Pick<T, K>) => Promise<T>;
  fields: Array<GuardField<K, T>>;
}

/**
 * Guards on the page of what they guard (a strategy, a customer): every staff member sees them, admins
 * change them (the inputs are read-only for the others, never hidden). An emptied field is sent as null
 * (no limit); saved values come back from the server and fill the form.
 */
export function GuardsCard<K extends string, T extends GuardValues<K>>({ testId, resource, queryKey, read, save, fields }: GuardsCardProps<K, T>) {
  const translate = useTranslate();
  const t = (key: string) => translate(`app.guards.${key}`);
  const showResult = useResultPopup();
  const queryClient = useQueryClient();
  const { canAccess } = useCanAccess({ resource, action: 'guard' });
  const guards = useQuery({ queryKey, queryFn: read });
  const mutation = useMutation({
    mutationFn: (values: Partial<GuardValues<K>>) => save(Object.fromEntries(fields.map(({ source }) => [source, values[source] ?? null])) as Pick<T, K>),
    onSuccess: (next: T) => {
      queryClient.setQueryData(queryKey, next);
      showResult({ type: 'success', message: t('notifications.saved') });
    },
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, t('notifications.failed')) }),
  });
  const editable = canAccess === true;
  return (
    <Card variant="outlined" data-testid={testId}>
      <CardContent>
        <Typography variant="subtitle1" gutterBottom>
          {t('title')}
        </Typography>
        {guards.data && <GuardsForm guards={guards.data} testId={testId} fields={fields} editable={editable} saving={mutation.isPending} onSave={mutation.mutate} />}
      </CardContent>
    </Card>
  );
}

interface GuardsFormProps<K extends string, T extends GuardValues<K>> {
  guards: T;
  testId: string;
  fields: Array<GuardField<K, T>>;
  editable: boolean;
  saving: boolean;
  onSave: (values: Partial<GuardValues<K>>) => void;
}

function GuardsForm<K extends string, T extends GuardValues<K>>({ guards, testId, fields, editable, saving, onSave }: GuardsFormProps<K, T>) {
  const translate = useTranslate();
  return (
    <Form record={{ id: testId, ...guards }} onSubmit={(values: Record<string, unknown>) => onSave(values as Partial<GuardValues<K>>)} noValidate>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr' }, columnGap: 2 }}>
        {fields.map((field) => {
          const common = { key: field.source, source: field.source, label: field.label, helperText: typeof field.help === 'function' ? field.help(guards) : field.help, readOnly: !editable };
          if (field.choices) return <SelectInput {...common} choices={field.choices} />;
          return <NumberInput {...common} validate={wholeUpTo(field.max ?? Number.MAX_SAFE_INTEGER, field.message ?? '')} step={1} />;
        })}
      </Box>
      <SaveButton label={translate('app.guards.actions.save')} disabled={!editable || saving} sx={{ mt: 1 }} />
    </Form>
  );
}
