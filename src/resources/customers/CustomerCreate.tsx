import Grid from '@mui/material/Grid';
import { useMemo } from 'react';
import { PasswordInput, TextInput, useTranslate, type TranslateFunction } from 'react-admin';
import { ENABLED_EXCHANGES, exchangeLabels } from '../../../contract/enums';
import { PersonCreate } from '../../components/form/PersonCreate';
import { linkTo } from '../../pages/routes';
import { useAgentChoices } from './CustomerFilters';
import { GroupOrExclusiveFormInput } from './GroupOrExclusiveInput';
import { customerCreateSchema, emptyCustomerCreate, toNewCustomer } from './customerCreateSchema';
import { ChoiceInput } from '../../components/form/ChoiceInput';
import type { FormFields } from '../../components/form/fieldMessages';

const EXCHANGES = ENABLED_EXCHANGES.map((exchange) => ({ id: exchange, name: exchangeLabels[exchange] }));

/** Agent, exchange and API credentials of a new customer. */
function CustomerInputs() {
  const translate = useTranslate();
  const label = (key: string) => translate(`resources.customers.fields.${key}`);
  const agents = useAgentChoices().map((agent) => ({ id: Number(agent.value), name: agent.label }));
  const half = { xs: 12, sm: 6 } as const;
  return (
    <Grid container columnSpacing={2}>
      <Grid size={half}>
        <ChoiceInput source="customer.agentId" label={label('agent')} choices={agents} />
      </Grid>
      <Grid size={half}>
        <ChoiceInput source="customer.platformType" label={label('platformType')} choices={EXCHANGES} />
      </Grid>
      <Grid size={half}>
        <TextInput size="small" source="customer.exchangeAccountUUID" label={label('exchangeAccountUUID')} fullWidth />
      </Grid>
      <Grid size={half}>
        <TextInput size="small" source="customer.apiKey" label={label('apiKey')} fullWidth />
      </Grid>
      <Grid size={half}>
        <PasswordInput size="small" source="customer.apiSecret" label={label('apiSecret')} fullWidth />
      </Grid>
      <Grid size={half}>
        <PasswordInput size="small" source="customer.passphrase" label={label('passphrase')} fullWidth />
      </Grid>
    </Grid>
  );
}

/** The labels of the customer's own inputs, for the messages that name them. */
function customerFormFields(translate: TranslateFunction): FormFields {
  const field = (key: string, choice = false) => ({ label: translate(`resources.customers.fields.${key}`), choice });
  return {
    'customer.agentId': field('agent', true),
    'customer.platformType': field('platformType', true),
    'customer.exchangeAccountUUID': field('exchangeAccountUUID'),
    'customer.apiKey': field('apiKey'),
    'customer.apiSecret': field('apiSecret'),
    'customer.passphrase': field('passphrase'),
    'customer.group': field('group', true),
  };
}

/** Add customer (/customer/add): the data provider creates the account (type 1), then the customer. */
export function CustomerCreate() {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const fields = useMemo(() => customerFormFields(translate), [translate]);
  return (
    <PersonCreate
      resource="customers"
      title={t('title.add')}
      listPath={linkTo('customers')}
      success={`${t('notifications.created')} ${t('notifications.createdDetail')}`}
      failure={t('notifications.createFailed')}
      schema={customerCreateSchema}
      defaultValues={emptyCustomerCreate}
      transform={toNewCustomer}
      fields={fields}
    >
      <CustomerInputs />
      <GroupOrExclusiveFormInput source="customer" />
    </PersonCreate>
  );
}
