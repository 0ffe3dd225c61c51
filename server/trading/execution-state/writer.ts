import type { DbOrTx } from '../../db/client';

/** What a transition needs: the database (or the caller's transaction) and the claim holder's id. */
export interface StateWriter {
  db: DbOrTx;
  /** Only the process holding the claim may change a claimed execution. */
  worker: string;
}
