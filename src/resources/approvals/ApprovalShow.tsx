import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import LinearProgress from '@mui/material/LinearProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import { useGetOne, useTranslate } from 'react-admin';
import { useParams } from 'react-router-dom';
import type { Customer } from '../../../contract/api/customer';
import { AccountStatus, CustomerGroup } from '../../../contract/enums';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import { linkTo } from '../../pages/routes';
import { PageTitle } from '../common/PageTitle';
import { ReadOnlyFields } from '../common/ReadOnlyFields';
import { StatusChip } from '../common/StatusChip';
import { useCan } from '../common/useCan';
import { GroupOrExclusiveInput, groupChoiceError, type GroupChoice } from '../customers/GroupOrExclusiveInput';
import { customerFields } from '../customers/customerFields';
import { CredentialsInputs, type CredentialValues } from './CredentialsInputs';
import { useApprovalActions } from './useApprovalActions';

function choiceOf(customer: Customer): GroupChoice {
  if (customer.group === CustomerGroup.Exclusive) return { group: CustomerGroup.Exclusive, isExclusive: true };
  return { group: (customer.group ?? '') as CustomerGroup | '', isExclusive: false };
}

function Detail({ customer }: { customer: Customer }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.customers.${key}`);
  const canApprove = useCan('approvals', 'approve');
  const canReject = useCan('approvals', 'reject');
  const canEdit = useCan('customers', 'group');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const [choice, setChoice] = useState<GroupChoice>(choiceOf(customer));
  const [groupError, setGroupError] = useState<string | undefined>(undefined);
  const [credentials, setCredentials] = useState<CredentialValues>({ platformType: customer.platformType || '', apiKey: '', apiSecret: '', passphrase: '' });
  const actions = useApprovalActions(customer, setResult);
  const changeGroup = (next: GroupChoice) => {
    setChoice(next);
    if (next.isExclusive || next.group !== '') setGroupError(undefined);
    void actions.saveGroup(next);
  };
  const approve = () => {
    const error = groupChoiceError(choice);
    setGroupError(error);
    if (error) {
      setResult({ type: 'error', message: translate('app.ui.form.fillRequired') });
      return;
    }
    void actions.decide(AccountStatus.Active, credentials);
  };
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <PageTitle
        title={t('title.approval')}
        home={linkTo('approvals')}
        actions={
          <>
            <StatusChip status={customer.account.status} label={t(`statuses.${customer.account.status}`)} />
            <Button variant="contained" color="success" disabled={!canApprove || actions.busy} onClick={approve}>
              {t('actions.approve')}
            </Button>
            <Button variant="outlined" color="error" disabled={!canReject || actions.busy || customer.account.status === AccountStatus.Rejected} onClick={() => void actions.decide(AccountStatus.Rejected, credentials)}>
              {t('actions.reject')}
            </Button>
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
            <GroupOrExclusiveInput value={choice} onChange={changeGroup} error={groupError} disabled={!canEdit} />
            <Typography variant="subtitle1">{t('sections.credentials')}</Typography>
            <CredentialsInputs values={credentials} maskedKey={customer.apiKey} disabled={!canEdit} onChange={(patch) => setCredentials((current) => ({ ...current, ...patch }))} />
          </Stack>
        </CardContent>
      </Card>
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}

/** 'Pending Approval Customer': approve or reject, group or exclusive, credential editing. */
export function ApprovalShow() {
  const { customerId } = useParams();
  const { data, isPending } = useGetOne<Customer>('approvals', { id: Number(customerId) });
  if (isPending) return <LinearProgress />;
  return data ? <Detail customer={data} /> : null;
}
