import type { FastifyInstance } from 'fastify';
import { count, eq } from 'drizzle-orm';
import { auditRoutes } from '../../../contract/api/audit';
import type { Deps } from '../../deps';
import { executions, entryAudits, exitAudits } from '../../db/schema/index';
import { registerFileRoute, registerRoute } from '../../http/route';
import { auditFileName, exportAudits } from './export';
import { searchAudits } from './search';

export function registerAuditRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, auditRoutes.entrySearch, async ({ query, body }) => searchAudits(deps.db, 'entry', { ...query, ...body }));
  registerRoute(app, auditRoutes.exitSearch, async ({ query, body }) => searchAudits(deps.db, 'exit', { ...query, ...body }));

  registerRoute(app, auditRoutes.entryStatistics, async () => {
    const [[entries], [audits]] = await Promise.all([
      deps.db.select({ n: count() }).from(executions),
      deps.db.select({ n: count() }).from(entryAudits),
    ]);
    return { total: entries?.n ?? 0, errors: audits?.n ?? 0 };
  });

  registerRoute(app, auditRoutes.exitStatistics, async () => {
    const [row] = await deps.db.select({ n: count() }).from(exitAudits).where(eq(exitAudits.isError, true));
    return { error: row?.n ?? 0 };
  });

  registerFileRoute(app, auditRoutes.entryExport, async ({ query, body }) => ({
    file: await exportAudits(deps.db, 'entry', { ...query, ...body }),
    fields: { fileName: auditFileName('entry') },
  }));

  registerFileRoute(app, auditRoutes.exitExport, async ({ query, body }) => ({
    file: await exportAudits(deps.db, 'exit', { ...query, ...body }),
    fields: { fileName: auditFileName('exit') },
  }));
}
