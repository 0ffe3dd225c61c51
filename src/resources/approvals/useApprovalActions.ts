import { useState } from 'react';
import { useDataProvider, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import { accountRoutes } from '../../../contract/api/account';
import { customerRoutes, type Customer } from '../../../contract/api/customer';
import { AccountStatus, CustomerGroup } from '../../../contract/enums';
import type { Result } from '../../components/ResultPopup';
import { errorMessage, type AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import type { GroupChoice } from '../customers/GroupOrExclusiveInput';
import { credentialsChanged, type CredentialValues } from './CredentialsInputs';

/**
 * Group changes (saved at once), approve (status 3) and reject (status 5); after the status the
 * credentials are saved when changed, then the page returns to /customers/approval.
 */
export function useApprovalActions(customer: Customer, showResult: (result: Result) => void) {
  const dataProvider = useDataProvider<AppDataProvider>();
  const translate = useTranslate();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  const saveGroup = async (choice: GroupChoice) => {
    const group = choice.isExclusive ? CustomerGroup.Exclusive : choice.group;
    if (group === '') return;
    try {
      await dataProvider.call(customerRoutes.group, { params: { id: customer.id }, body: { group } });
    } catch (error) {
      showResult({ type: 'error', message: errorMessage(error, translate('app.ui.accountsFailure.updateCustomer')) });
    }
  };

  const decide = async (status: typeof AccountStatus.Active | typeof AccountStatus.Rejected, credentials: CredentialValues) => {
    setBusy(true);
    try {
      await dataProvider.call(accountRoutes.changeStatus, { params: { accountId: customer.account.id }, body: { status } });
      if (credentialsChanged(credentials)) {
        await dataProvider.call(customerRoutes.credentials, {
          params: { id: customer.id },
          body: { platformType: Number(credentials.platformType), apiKey: credentials.apiKey.trim(), apiSecret: credentials.apiSecret.trim(), passphrase: credentials.passphrase.trim() || null },
        });
      }
      navigate(linkTo('approvals'));
    } catch (error) {
      showResult({ type: 'error', message: errorMessage(error, translate('app.ui.fallback.somethingWentWrong')) });
    } finally {
      setBusy(false);
    }
  };

  return { busy, saveGroup, decide };
}
