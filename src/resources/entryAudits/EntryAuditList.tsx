import { AuditList } from './AuditList';

/** Entry Order Audit (/activity/entry). */
export function EntryAuditList() {
  return <AuditList kind="entry" />;
}
