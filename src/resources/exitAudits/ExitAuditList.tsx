import { AuditList } from '../entryAudits/AuditList';

/** Exit Order Audit (/activity/exit). */
export function ExitAuditList() {
  return <AuditList kind="exit" />;
}
