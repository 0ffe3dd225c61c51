import { createContext, useContext } from 'react';
import type { Account } from '../../contract/api/account';
import type { AccountType } from '../../contract/enums';

export interface SignedInAccount {
  account: Account;
  accountType: AccountType;
}

const AccountContext = createContext<SignedInAccount | undefined>(undefined);

export const AccountProvider = AccountContext.Provider;

/** The signed-in account of the back office (the route guard provides it). */
export function useSignedInAccount(): SignedInAccount {
  const value = useContext(AccountContext);
  if (!value) throw new Error('useSignedInAccount must be used inside the back office');
  return value;
}
