// Named counters for IDs that have no table of their own (customers, addresses).
import type { Db } from './db';

export class CountersRepo {
  private readonly stepStmt;
  private readonly valueStmt;

  constructor(db: Db) {
    // Two statements rather than UPDATE … RETURNING, which SQLite runs through an ephemeral table of the
    // rows returned: counted, 18.9k instructions against 11.8k for both (the same value: one connection,
    // inside the caller's transaction).
    this.stepStmt = db.prepare<[string]>('UPDATE counters SET value = value + 1 WHERE name = ?');
    this.valueStmt = db.prepare<[string], number>('SELECT value FROM counters WHERE name = ?').pluck();
  }

  next(name: 'customer' | 'address'): number {
    this.stepStmt.run(name);
    return this.valueStmt.get(name)!;
  }
}
