import { useDataProvider, useTranslate } from 'react-admin';
import { accountRoutes } from '../../../contract/api/account';
import { agentRoutes } from '../../../contract/api/agent';
import { AccountType } from '../../../contract/enums';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { PersonCreatePage } from '../common/PersonCreatePage';
import { accountBody } from '../common/personForm';

/** Add agent: POST /api/account (type 2), then POST /api/agent. */
export function AgentCreate() {
  const translate = useTranslate();
  const dataProvider = useDataProvider<AppDataProvider>();
  return (
    <PersonCreatePage
      title={translate('resources.agents.title.add')}
      listPath={linkTo('agents')}
      successMessage={translate('resources.agents.notifications.created')}
      failureMessage={translate('resources.agents.notifications.createFailed')}
      create={async (person) => {
        const account = await dataProvider.call(accountRoutes.create, { body: accountBody(person, AccountType.Agent) });
        await dataProvider.call(agentRoutes.create, { body: { accountId: account.id } });
      }}
    />
  );
}
