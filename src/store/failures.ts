// Failures of the database itself (a full disk, an I/O error), as opposed to a request it refused or
// a fault in the code: the change could not be stored, and trying again later may well work.

/** The database rolled an open transaction back by itself, for a reason no statement of ours reported. */
export class RolledBack extends Error {
  constructor() {
    super('the transaction was rolled back by the database');
  }
}

/**
 * A write of the same commit group failed with nothing to undo it alone (Store.txChecked): the group
 * was rolled back whole, as when its commit fails, and each of its changes may be tried again.
 */
export class GroupUndone extends Error {
  /** @param cause the failure of the change that undid the group, when it is known */
  constructor(cause?: unknown) {
    super('a change stored together with it failed, and both were undone; try again', cause === undefined ? undefined : { cause });
  }
}

/** The store holds its writes while a snapshot is restored by another connection: try again shortly. */
export class WritesHeld extends Error {
  readonly code = 'SQLITE_BUSY';
  constructor() {
    super('a snapshot is being restored; writes wait for it');
  }
}

const STORAGE_CODES = /^SQLITE_(FULL|IOERR|NOMEM|READONLY|BUSY|LOCKED|CANTOPEN|PROTOCOL)/;

/** Whether `e` says the database could not store a change: answer 503, keep the work for later. */
export function isStorageFailure(e: unknown): boolean {
  if (e instanceof RolledBack || e instanceof GroupUndone) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORAGE_CODES.test(code);
}
