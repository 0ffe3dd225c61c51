import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ShowBase, useCanAccess, useShowContext, useTranslate } from 'react-admin';
import { useNavigate } from 'react-router-dom';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus, CustomerGroup } from '../../../contract/enums';
import { StatusChip } from '../../components/StatusChip';
import { useResultPopup } from '../../components/ResultPopupProvider';
import { PageTitle } from '../../components/profile/PageTitle';
import { PersonActions, type PersonAction } from '../../components/profile/PersonActions';
import { ReadOnlyFields } from '../../components/profile/ReadOnlyFields';
import { errorMessage, useAppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { GroupOrExclusiveInput, type GroupChoice } from '../customers/GroupOrExclusiveInput';
import { customerFields } from '../customers/customerFields';
import { CredentialsInputs, newCredentials, type CredentialValues } from './CredentialsInputs';

function choiceOf(customer: Customer): GroupChoice {
  if (customer.group === CustomerGroup.Exclusive) return { group: CustomerGroup.Exclusive, isExclusive: true };
  return { group: (customer.group as CustomerGroup | null) ?? null, isExclusive: false };
}

/** A group change is saved at once (spec 4), not on the first render. */
function useGroupChange(customer: Customer) {
  const translate = useTranslate();
  const dataProvider = useAppDataProvider();
  const showResult = useResultPopup();
  return useMutation({
    mutationFn: (group: CustomerGroup) => dataProvider.changeCustomerGroup(customer.id, group),
    onError: (error) => showResult({ type: 'error', message: errorMessage(error, translate('app.ui.accountsFailure.updateCustomer')) }),
  });
}

function ApprovalDetail({ customer }: { customer: Customer }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const dataProvider = useAppDataProvider();
  const navigate = useNavigate();
  const { canAccess: canEdit } = useCanAccess({ resource: 'customers', action: 'group' });
  const [choice, setChoice] = useState<GroupChoice>(choiceOf(customer));
  const [groupError, setGroupError] = useState<string | undefined>(undefined);
  const [credentials, setCredentials] = useState<CredentialValues>({ platformType: customer.platformType || '', apiKey: '', apiSecret: '', passphrase: '' });
  const groupChange = useGroupChange(customer);
  const changeGroup = (next: GroupChoice) => {
    setChoice(next);
    if (next.group !== null) {
      setGroupError(undefined);
      groupChange.mutate(next.group);
    }
  };
  const toList = () => navigate(linkTo('approvals'));
  const actions: PersonAction[] = [
    {
      name: 'approve',
      label: t('actions.approve'),
      access: { resource: 'approvals', action: 'approve' },
      color: 'success',
      check: () => {
        if (choice.group !== null) return undefined;
        setGroupError(translate('app.validation.selectGroupOrExclusive'));
        return translate('app.ui.form.fillRequired');
      },
      confirm: t('confirm.approve'),
      run: () => dataProvider.approveCustomer(customer, newCredentials(credentials)),
      success: t('notifications.approved'),
      afterClose: toList,
    },
    {
      name: 'reject',
      label: t('actions.reject'),
      access: { resource: 'approvals', action: 'reject' },
      color: 'error',
      disabled: customer.account.status === AccountStatus.Rejected,
      confirm: t('confirm.reject'),
      run: () => dataProvider.rejectCustomer(customer, newCredentials(credentials)),
      success: t('notifications.rejected'),
      afterClose: toList,
    },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.approval')}
        home={linkTo('approvals')}
        actions={
          <>
            <StatusChip status={customer.account.status} />
            <PersonActions actions={actions} variant="buttons" />
          </>
        }
      />
      <Card variant="outlined">
        <CardContent>
          <ReadOnlyFields fields={customerFields(customer).map((field) => ({ label: t(`fields.${field.key}`), value: field.value }))} />
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Stack spacing={2}>
            <GroupOrExclusiveInput value={choice} onChange={changeGroup} error={groupError} disabled={canEdit !== true} />
            <Typography variant="subtitle1">{t('sections.credentials')}</Typography>
            <CredentialsInputs values={credentials} stored={customer} disabled={canEdit !== true} onChange={(patch) => setCredentials((current) => ({ ...current, ...patch }))} />
          </Stack>
        </CardContent>
      </Card>
    </Stack>
  );
}

function ApprovalView() {
  const { record, isPending } = useShowContext<Customer>();
  if (isPending) return <LinearProgress />;
  return record ? <ApprovalDetail customer={record} /> : null;
}

/**
 * 'Pending Approval Customer' (/customers/approval/{id}): approve (status 3) or reject (status 5),
 * then the new credentials if typed; the success popup leads back to the list. Group changes are
 * saved at once.
 */
export function ApprovalShow() {
  return (
    <ShowBase resource="approvals" redirectOnError={() => linkTo('approvals')}>
      <ApprovalView />
    </ShowBase>
  );
}
