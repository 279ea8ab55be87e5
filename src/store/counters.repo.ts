// Named counters for IDs that have no table of their own (customers, addresses).
import type { Db } from './db';

export class CountersRepo {
  private readonly nextStmt;

  constructor(db: Db) {
    this.nextStmt = db.prepare<[string], { value: number }>(
      'UPDATE counters SET value = value + 1 WHERE name = ? RETURNING value',
    );
  }

  next(name: 'customer' | 'address'): number {
    return this.nextStmt.get(name)!.value;
  }
}
