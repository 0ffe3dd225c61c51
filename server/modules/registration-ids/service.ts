import type { RegistrationIdItem } from '../../../contract/api/registrationId';
import { AccountStatus, RegistrationIdStatus } from '../../../contract/enums';
import type { Deps } from '../../deps';
import { badRequest } from '../../http/errors';
import { logStaffAction } from '../../lib/staff-log';
import { humanCode } from '../../lib/tokens';
import { isUniqueViolation } from '../accounts/repository';
import { findAgent } from '../agents/repository';
import { agentNotFound } from '../agents/service';
import { insertRegistrationId } from './repository';

/** 12 characters of a 31-letter alphabet: about 59 bits, far beyond guessing under the verify rate limit. */
export const REGISTRATION_CODE_LENGTH = 12;
const INSERT_ATTEMPTS = 5;

/**
 * Creates a single-use code for an agent, dated by `deps.clock`. `byStaff` marks an admin creating
 * it on the agent's behalf: that is logged as a staff action in the same transaction.
 */
export async function createRegistrationId(
  deps: Pick<Deps, 'db' | 'clock'>,
  input: { actorAccountId: number; agentId: number; byStaff: boolean },
): Promise<RegistrationIdItem> {
  const agent = await findAgent(deps.db, { agentId: input.agentId });
  if (!agent) throw agentNotFound();
  if (agent.account.status !== AccountStatus.Active) throw badRequest('This agent is not active; unblock the agent before creating Registration IDs');
  const datetimeInserted = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    for (let attempt = 1; ; attempt++) {
      const code = humanCode(REGISTRATION_CODE_LENGTH);
      try {
        // A savepoint per attempt: a (vanishingly rare) duplicate code retries instead of failing.
        const { id } = await tx.transaction((sp) => insertRegistrationId(sp, { code, agentId: agent.id, createdByAccountId: input.actorAccountId, datetimeInserted }));
        if (input.byStaff) {
          await logStaffAction(tx, { actorAccountId: input.actorAccountId, action: 'create', targetType: 'registrationId', targetId: id, details: { agentId: agent.id } });
        }
        return {
          id,
          code,
          status: RegistrationIdStatus.Pending,
          datetimeInserted: datetimeInserted.toISOString(),
          datetimeRegistered: null,
          agent: { id: agent.id, firstName: agent.account.firstName, lastName: agent.account.lastName },
        };
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= INSERT_ATTEMPTS) throw error;
      }
    }
  });
}
