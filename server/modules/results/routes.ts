import type { FastifyInstance } from 'fastify';
import { resultsRoutes } from '../../../contract/api/results';
import { AccountType } from '../../../contract/enums';
import { server as messages } from '../../../contract/messages';
import type { Deps } from '../../deps';
import { notFound } from '../../http/errors';
import { registerRoute } from '../../http/route';
import { customerExists } from '../switches/repository';
import { customerResults } from './repository';

/** A customer's results (issue 29): staff read anyone's, a customer their own (anyone else's: the same 404 as an unknown id). */
export function registerResultsRoutes(app: FastifyInstance, deps: Deps): void {
  registerRoute(app, resultsRoutes.customer, async ({ params, auth }) => {
    const ownerOnly = auth.accountType === AccountType.Customer ? auth.accountId : undefined;
    if (!(await customerExists(deps.db, params.id, ownerOnly))) throw notFound(messages.notFound('Customer'));
    return customerResults(deps.db, params.id);
  });
}
