import { z } from 'zod';
import { useTranslate } from 'react-admin';
import { AccountType } from '../../../contract/enums';
import { PersonCreate } from '../../components/form/PersonCreate';
import { personWithPasswordSchema } from '../../components/form/personSchema';
import type { NewPerson } from '../../dataProvider/resources/agents';
import { linkTo } from '../../pages/routes';

const agentCreateSchema = z.object({ account: personWithPasswordSchema });
type AgentCreateValues = z.input<typeof agentCreateSchema>;

/** Add agent (/agent/add): the data provider creates the account (type 2), then the agent. */
export function AgentCreate() {
  const translate = useTranslate();
  return (
    <PersonCreate
      resource="agents"
      title={translate('resources.agents.title.add')}
      listPath={linkTo('agents')}
      success={translate('resources.agents.notifications.created')}
      failure={translate('resources.agents.notifications.createFailed')}
      schema={agentCreateSchema}
      transform={(values: AgentCreateValues): NewPerson => ({ account: { ...values.account, accountType: AccountType.Agent } })}
    />
  );
}
