import { useListFilterContext, useTranslate } from 'react-admin';
import { Link } from 'react-router-dom';
import type { AuditItem } from '../../../contract/api/audit';
import { AUDIT_PAGE_SIZE } from '../../../contract/constants';
import { entryDirectionLabels, exitTypeLabel, orderEntryTypeLabels, type EntryDirection, type OrderEntryType } from '../../../contract/enums';
import { formatDate, formatTime } from '../../components/formatDate';
import { ExportButton } from '../../components/list/ExportButton';
import { ListHeader } from '../../components/list/ListHeader';
import { ListDataTable } from '../../components/list/ListDataTable';
import { ListColumn } from '../../components/list/ListColumn';
import { ListPagination } from '../../components/list/ListPagination';
import { RowNumberField } from '../../components/list/RowNumberField';
import { SpecList } from '../../components/list/SpecList';
import { useAppDataProvider } from '../../dataProvider';
import { AUDIT_FILTERS } from '../../dataProvider/resources/auditRequest';
import type { AuditKind } from '../../dataProvider/resources/audits';
import { linkTo } from '../../pages/routes';
import { AuditCounts } from './AuditCounts';
import { AuditFilters } from './AuditFilters';

const Column = ListColumn<AuditItem>;

/** A customer link, except for the customer named Admin (manual exits by an admin), which does nothing. */
function CustomerName({ item }: { item: AuditItem }) {
  if (!item.customer) return null;
  const name = `${item.customer.firstName} ${item.customer.lastName}`;
  if (item.customer.firstName === 'Admin') return <span>{name}</span>;
  return <Link to={linkTo('customerShow', { id: item.customer.id })}>{name}</Link>;
}

/** entry.xlsx / exit.xlsx with the list's filters. */
function AuditExportButton({ kind }: { kind: AuditKind }) {
  const dataProvider = useAppDataProvider();
  const { filterValues } = useListFilterContext();
  return <ExportButton fileName={`${kind}.xlsx`} exportFile={() => dataProvider.exportAudit(kind, filterValues)} />;
}

/** Entry or Exit Order Audit: query parameters pageIndex, current, month (+ symbol, exitType); export. */
export function AuditList({ kind }: { kind: AuditKind }) {
  const translate = useTranslate();
  const t = (key: string) => translate(`resources.entryAudits.${key}`);
  return (
    <SpecList resource={kind === 'entry' ? 'entryAudits' : 'exitAudits'} filters={AUDIT_FILTERS} perPage={AUDIT_PAGE_SIZE}>
      <ListHeader title={t(`title.${kind}`)} counts={<AuditCounts kind={kind} />} actions={<AuditExportButton kind={kind} />} />
      <AuditFilters kind={kind} />
      <ListDataTable<AuditItem>>
        <Column label="resources.entryAudits.fields.number" disableSort>
          <RowNumberField />
        </Column>
        <Column
          label="resources.entryAudits.fields.transactionId"
          disableSort
          render={(row) => (row.transactionId !== null && row.strategy ? <Link to={linkTo('strategyEdit', { id: row.strategy.id })}>{row.transactionId}</Link> : row.transactionId)}
        />
        <Column label="resources.entryAudits.fields.customer" disableSort render={(row) => <CustomerName item={row} />} />
        <Column label="resources.entryAudits.fields.agent" disableSort render={(row) => (row.customer?.agent ? `${row.customer.agent.firstName} ${row.customer.agent.lastName}` : '')} />
        <Column label="resources.entryAudits.fields.symbol" disableSort render={(row) => row.strategy?.symbol ?? ''} />
        <Column label="resources.entryAudits.fields.direction" disableSort render={(row) => (row.strategy ? (entryDirectionLabels[row.strategy.entryDirection as EntryDirection] ?? '') : '')} />
        {kind === 'entry' ? (
          <Column label="resources.entryAudits.fields.entryType" disableSort render={(row) => (row.entryType ? (orderEntryTypeLabels[row.entryType as OrderEntryType] ?? '') : '')} />
        ) : (
          <Column label="resources.entryAudits.fields.exitType" disableSort render={(row) => exitTypeLabel(row.exitType)} />
        )}
        <Column label="resources.entryAudits.fields.date" disableSort render={(row) => formatDate(row.datetimeInserted)} />
        <Column label="resources.entryAudits.fields.time" disableSort render={(row) => formatTime(row.datetimeInserted)} />
        <Column source="message" label="resources.entryAudits.fields.message" disableSort long />
      </ListDataTable>
      <ListPagination />
    </SpecList>
  );
}
