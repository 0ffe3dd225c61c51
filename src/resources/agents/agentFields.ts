import type { Agent } from '../../../contract/api/agent';
import { genderLabels, type Gender } from '../../../contract/enums';

/** The read-only profile fields of an agent (labels are translation keys of resources.agents.fields). */
export function agentFields(agent: Agent): { key: string; value: string }[] {
  const { account } = agent;
  return [
    { key: 'agentId', value: String(agent.id) },
    { key: 'firstName', value: account.firstName },
    { key: 'lastName', value: account.lastName },
    { key: 'email', value: account.email },
    { key: 'age', value: account.age === null ? '' : String(account.age) },
    { key: 'phone', value: account.phone ?? '' },
    { key: 'country', value: account.country?.name ?? '' },
    { key: 'gender', value: account.gender ? (genderLabels[account.gender as Gender] ?? '') : '' },
  ];
}
