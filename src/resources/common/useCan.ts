import { canAccess, type ResourceAction } from '../../../contract/access';
import { useSignedInAccount } from '../../layout/AccountContext';

/**
 * Whether the signed-in person may do `action` on `resource`, from the role table of
 * contract/access.ts (the same `canAccess` the server's table and the authProvider use).
 */
export function useCan(resource: string, action: ResourceAction): boolean {
  const { accountType } = useSignedInAccount();
  return canAccess(accountType, { resource, action });
}
