import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { useMemo, type ReactNode } from 'react';
import { CreateBase, Form, SaveButton, useTranslate, type TransformData } from 'react-admin';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import { useNavigate } from 'react-router-dom';
import type { z } from 'zod';
import { errorMessage } from '../../dataProvider';
import { PageTitle } from '../profile/PageTitle';
import { useResultPopup } from '../ResultPopupProvider';
import { labelledResolver, type FormFields } from './fieldMessages';
import { personFormFields, PersonInputs } from './PersonInputs';
import { PopupOnInvalidSubmit } from './PopupOnInvalidSubmit';

export interface PersonCreateProps<V extends FieldValues> {
  resource: string;
  title: string;
  /** The list the home button and the closed success popup return to. */
  listPath: string;
  success: string;
  failure: string;
  /** The form's contract-based schema; `account.*` holds the personal fields. */
  schema: z.ZodType<V, V>;
  defaultValues?: DefaultValues<V>;
  /** The validated form as the data provider's `create` data. */
  transform: (values: V) => ReturnType<TransformData>;
  /** Inputs under the personal fields (exchange details, Staff Permissions...). */
  children?: ReactNode;
  /** Those inputs' labels by path, for the messages that name them. */
  fields?: FormFields;
}

/**
 * Add customer / agent / employee: react-admin's create form over the personal fields and the
 * resource's own, validated by the contract's schemas through zodResolver. An invalid save says
 * 'Please fill in all required fields.'; closing the success popup returns to the list.
 */
export function PersonCreate<V extends FieldValues>(props: PersonCreateProps<V>) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const showResult = useResultPopup();
  const { schema, fields } = props;
  const resolver = useMemo(
    () =>
      labelledResolver(schema, { ...personFormFields(translate), ...fields }, {
        required: (field) => translate('app.lists.form.required', { field }),
        select: (field) => translate('app.lists.form.select', { field }),
      }),
    [schema, fields, translate],
  );
  return (
    <CreateBase
      resource={props.resource}
      redirect={false}
      transform={props.transform}
      mutationOptions={{
        onSuccess: () => showResult({ type: 'success', message: props.success }, { onClose: () => navigate(props.listPath) }),
        onError: (error: unknown) => showResult({ type: 'error', message: errorMessage(error, props.failure) }),
      }}
    >
      <Stack spacing={2} sx={{ p: 2 }}>
        <PageTitle title={props.title} home={props.listPath} />
        <Card variant="outlined">
          <CardContent>
            <Form resolver={resolver} defaultValues={props.defaultValues} disableInvalidFormNotification noValidate>
              <Stack spacing={1}>
                <PersonInputs withPassword />
                {props.children}
                <Stack direction="row">
                  <SaveButton label="app.lists.submit" alwaysEnable />
                </Stack>
              </Stack>
              <PopupOnInvalidSubmit message={translate('app.ui.form.fillRequired')} />
            </Form>
          </CardContent>
        </Card>
      </Stack>
    </CreateBase>
  );
}
