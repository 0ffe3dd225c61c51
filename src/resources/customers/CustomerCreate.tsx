import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import MenuItem from '@mui/material/MenuItem';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { accountRoutes } from '../../../contract/api/account';
import { AGENT_DROPDOWN_QUERY, agentRoutes } from '../../../contract/api/agent';
import { customerRoutes } from '../../../contract/api/customer';
import { AccountType, ENABLED_EXCHANGES, exchangeLabels, type Exchange } from '../../../contract/enums';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { PageTitle } from '../common/PageTitle';
import { PersonInputs } from '../common/PersonInputs';
import { accountBody, emptyPerson, type PersonValues } from '../common/personForm';
import { GroupOrExclusiveInput } from './GroupOrExclusiveInput';
import { customerCreateErrors, emptyCustomerCreate, type CustomerCreateValues } from './customerCreateForm';

/** Add customer: the account (POST /api/account, type 1), then credentials, agent and group (POST /api/customer). */
export function CustomerCreate() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const navigate = useNavigate();
  const dataProvider = useDataProvider<AppDataProvider>();
  const agents = useQuery({ queryKey: ['agents', 'dropdown'], queryFn: () => dataProvider.call(agentRoutes.all, { query: AGENT_DROPDOWN_QUERY }) });
  const [person, setPerson] = useState<PersonValues>(emptyPerson);
  const [values, setValues] = useState<CustomerCreateValues>(emptyCustomerCreate);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [created, setCreated] = useState(false);
  const [busy, setBusy] = useState(false);
  const set = (patch: Partial<CustomerCreateValues>) => setValues((current) => ({ ...current, ...patch }));
  const submit = async () => {
    const found = customerCreateErrors(person, values);
    setErrors(found);
    if (Object.keys(found).length > 0) {
      setResult({ type: 'error', message: t('notifications.fillRequired') });
      return;
    }
    setBusy(true);
    try {
      const account = await dataProvider.call(accountRoutes.create, { body: accountBody(person, AccountType.Customer) });
      await dataProvider.call(customerRoutes.create, {
        body: {
          accountId: account.id,
          agentId: Number(values.agentId),
          platformType: Number(values.platformType),
          exchangeAccountUUID: values.exchangeAccountUUID.trim(),
          apiKey: values.apiKey.trim(),
          apiSecret: values.apiSecret.trim(),
          passphrase: values.passphrase.trim() || null,
          group: values.choice.isExclusive ? null : Number(values.choice.group),
          isExclusive: values.choice.isExclusive,
        },
      });
      setCreated(true);
      setResult({ type: 'success', message: `${t('notifications.created')} ${t('notifications.createdDetail')}` });
    } catch (error) {
      setResult({ type: 'error', message: errorMessage(error, t('notifications.createFailed')) });
    } finally {
      setBusy(false);
    }
  };
  const text = (key: 'exchangeAccountUUID' | 'apiKey' | 'apiSecret' | 'passphrase', required = true) => (
    <Grid size={{ xs: 12, sm: 6 }}>
      <TextField size="small" fullWidth required={required} label={t(`fields.${key}`)} value={values[key]} error={Boolean(errors[key])} onChange={(e) => set({ [key]: e.target.value })} />
    </Grid>
  );
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle title={t('title.add')} home={linkTo('customers')} />
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <PersonInputs values={person} errors={errors} onChange={(patch) => setPerson((current) => ({ ...current, ...patch }))} withPassword />
            <Grid container spacing={2}>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField select size="small" fullWidth required label={t('fields.agent')} value={values.agentId} error={Boolean(errors.agentId)} helperText={errors.agentId} onChange={(e) => set({ agentId: Number(e.target.value) })}>
                  {(agents.data?.data ?? []).map((agent) => (
                    <MenuItem key={agent.id} value={agent.id}>{`${agent.account.firstName} ${agent.account.lastName}`}</MenuItem>
                  ))}
                </TextField>
              </Grid>
              <Grid size={{ xs: 12, sm: 6 }}>
                <TextField select size="small" fullWidth required label={t('fields.platformType')} value={values.platformType} error={Boolean(errors.platformType)} helperText={errors.platformType} onChange={(e) => set({ platformType: Number(e.target.value) })}>
                  {ENABLED_EXCHANGES.map((exchange: Exchange) => (
                    <MenuItem key={exchange} value={exchange}>
                      {exchangeLabels[exchange]}
                    </MenuItem>
                  ))}
                </TextField>
              </Grid>
              {text('exchangeAccountUUID')}
              {text('apiKey')}
              {text('apiSecret')}
              {text('passphrase', false)}
            </Grid>
            <GroupOrExclusiveInput value={values.choice} onChange={(choice) => set({ choice })} error={errors.group ? 'app.validation.selectGroupOrExclusive' : undefined} />
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
          if (created) navigate(linkTo('customers'));
        }}
      />
    </Stack>
  );
}
