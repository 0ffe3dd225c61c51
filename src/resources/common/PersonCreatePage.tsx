import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Stack from '@mui/material/Stack';
import { useState, type ReactNode } from 'react';
import { useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { errorMessage } from '../../dataProvider';
import { PageTitle } from './PageTitle';
import { PersonInputs } from './PersonInputs';
import { emptyPerson, personErrors, type PersonErrors, type PersonValues } from './personForm';

export interface PersonCreatePageProps {
  title: string;
  listPath: string;
  successMessage: string;
  failureMessage: string;
  /** Extra inputs under the personal fields (e.g. Staff Permissions). */
  extra?: ReactNode;
  /** Extra checks; a text per failing field. */
  extraErrors?: () => Record<string, string>;
  create: (person: PersonValues) => Promise<void>;
}

/** Add agent / add employee: personal fields, then the create calls; closing the success popup returns to the list. */
export function PersonCreatePage(props: PersonCreatePageProps) {
  const translate = useTranslate();
  const navigate = useNavigate();
  const [person, setPerson] = useState<PersonValues>(emptyPerson);
  const [errors, setErrors] = useState<PersonErrors & Record<string, string>>({});
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [created, setCreated] = useState(false);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    const found = { ...personErrors(person, true), ...(props.extraErrors?.() ?? {}) };
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setResult({ type: 'error', message: translate('app.ui.form.fillRequired') });
      return;
    }
    setBusy(true);
    try {
      await props.create(person);
      setCreated(true);
      setResult({ type: 'success', message: props.successMessage });
    } catch (error) {
      setResult({ type: 'error', message: errorMessage(error, props.failureMessage) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle title={props.title} home={props.listPath} />
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <PersonInputs values={person} errors={errors} onChange={(patch) => setPerson((current) => ({ ...current, ...patch }))} withPassword />
            {props.extra}
            <Stack direction="row">
              <Button variant="contained" disabled={busy} onClick={() => void submit()}>
                {translate('app.lists.submit')}
              </Button>
            </Stack>
          </Stack>
        </CardContent>
      </Card>
      <ResultPopup
        result={result}
        onClose={() => {
          setResult(undefined);
          if (created) navigate(props.listPath);
        }}
      />
    </Stack>
  );
}
