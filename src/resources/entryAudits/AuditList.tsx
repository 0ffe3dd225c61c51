import Stack from '@mui/material/Stack';
import { useState } from 'react';
import { useDataProvider, useGetList, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import { auditRoutes, type AuditItem } from '../../../contract/api/audit';
import { AUDIT_PAGE_SIZE } from '../../../contract/constants';
import { entryDirectionLabels, exitTypeLabels, orderEntryTypeLabels, type EntryDirection, type ExitType, type OrderEntryType } from '../../../contract/enums';
import { formatDate, formatTime } from '../../components/formatDate';
import { ResultPopup, type Result } from '../../components/ResultPopup';
import type { AppDataProvider } from '../../dataProvider';
import { linkTo } from '../../pages/routes';
import { ExportButton } from '../common/ExportButton';
import { ListHeader } from '../common/ListHeader';
import { ListTable, type Column } from '../common/ListTable';
import { rowNumber } from '../common/listParams';
import { useCan } from '../common/useCan';
import { useListState } from '../common/useListState';
import { AuditCounts } from './AuditCounts';
import { AuditFilters } from './AuditFilters';
import { AUDIT_FILTERS, auditRequest } from './auditRequest';

/** A customer link, except for the customer named Admin (manual exits by an admin), which does nothing. */
function CustomerName({ item }: { item: AuditItem }) {
  if (!item.customer) return null;
  const name = `${item.customer.firstName} ${item.customer.lastName}`;
  if (item.customer.firstName === 'Admin') return <span>{name}</span>;
  return <Link to={linkTo('customerShow', { customerId: item.customer.id })}>{name}</Link>;
}

/** Entry or Exit Order Audit: query parameters pageIndex, current, month (+ symbol, exitType); export. */
export function AuditList({ kind }: { kind: 'entry' | 'exit' }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.entryAudits.${key}`);
  const resource = kind === 'entry' ? 'entryAudits' : 'exitAudits';
  const list = useListState(AUDIT_FILTERS, AUDIT_PAGE_SIZE);
  const dataProvider = useDataProvider<AppDataProvider>();
  const canExport = useCan(resource, 'export');
  const [result, setResult] = useState<Result | undefined>(undefined);
  const { data, total, isPending } = useGetList<AuditItem>(resource, { pagination: { page: list.page, perPage: list.pageSize }, filter: list.filters });
  const exportFile = () => {
    const { query, filter } = auditRequest(list.filters, new Date());
    return dataProvider.call(kind === 'entry' ? auditRoutes.entryExport : auditRoutes.exitExport, { query, body: { filter } });
  };
  const columns: Column<AuditItem>[] = [
    { key: 'number', label: t('fields.number'), render: (_, i) => rowNumber(list.page, list.pageSize, i) },
    {
      key: 'transactionId',
      label: t('fields.transactionId'),
      render: (row) => (row.transactionId !== null && row.strategy ? <Link to={linkTo('strategyEdit', { strategyId: row.strategy.id })}>{row.transactionId}</Link> : row.transactionId),
    },
    { key: 'customer', label: t('fields.customer'), render: (row) => <CustomerName item={row} /> },
    { key: 'agent', label: t('fields.agent'), render: (row) => (row.customer?.agent ? `${row.customer.agent.firstName} ${row.customer.agent.lastName}` : '') },
    { key: 'symbol', label: t('fields.symbol'), render: (row) => row.strategy?.symbol ?? '' },
    { key: 'direction', label: t('fields.direction'), render: (row) => (row.strategy ? (entryDirectionLabels[row.strategy.entryDirection as EntryDirection] ?? '') : '') },
    kind === 'entry'
      ? { key: 'type', label: t('fields.entryType'), render: (row) => (row.entryType ? (orderEntryTypeLabels[row.entryType as OrderEntryType] ?? '') : '') }
      : { key: 'type', label: t('fields.exitType'), render: (row) => (row.exitType ? (exitTypeLabels[row.exitType as ExitType] ?? '') : '') },
    { key: 'date', label: t('fields.date'), render: (row) => formatDate(row.datetimeInserted) },
    { key: 'time', label: t('fields.time'), render: (row) => formatTime(row.datetimeInserted) },
    { key: 'message', label: t('fields.message'), render: (row) => row.message },
  ];
  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      <ListHeader
        title={t(`title.${kind}`)}
        counts={<AuditCounts kind={kind} />}
        actions={<ExportButton fileName={`${kind}.xlsx`} allowed={canExport} onResult={setResult} load={exportFile} />}
      />
      <AuditFilters kind={kind} list={list} />
      <ListTable columns={columns} rows={data} rowKey={(row) => row.id} loading={isPending} total={total ?? 0} page={list.page} pageSize={list.pageSize} onPageChange={list.setPage} onPageSizeChange={list.setPageSize} />
      <ResultPopup result={result} onClose={() => setResult(undefined)} />
    </Stack>
  );
}
