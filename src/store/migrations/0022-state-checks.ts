// The state constraints of scenario steps and notifications, written as comparisons joined by OR
// instead of `state IN (…)`: SQLite checks an IN list of three or more constants by building an
// ephemeral index of the list at every write that checks it (about 23k instructions a write; a
// create and its authorization step make three such writes). The states allowed are the same.
import type { Db } from '../db';

export const sql = '';

/** Each table's state constraint as the database holds it, and the states it allows. */
const STATES: readonly { table: string; states: readonly string[] }[] = [
  { table: 'scenario_jobs', states: ['pending', 'done', 'skipped'] },
  { table: 'notifications', states: ['pending', 'delivered', 'failed', 'no-url', 'dropped'] },
];

const inList = (states: readonly string[]) => `CHECK (state IN (${states.map((s) => `'${s}'`).join(', ')}))`;
const ors = (states: readonly string[]) => `CHECK (${states.map((s) => `state = '${s}'`).join(' OR ')})`;

/**
 * Each table is rebuilt from the definition the database holds (a CHECK changes only that way), so
 * that the columns other migrations added come along; its indexes are made again and its IDs go on
 * from where they were. Runs with foreign keys off; migrate() checks them before the commit.
 */
export function up(db: Db): void {
  for (const { table: name, states } of STATES) {
    const table = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = ?`).pluck().get(name) as string;
    if (!table.includes(inList(states))) throw new Error(`${name}: the state constraint is not the one this migration knows`);
    const indexes = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL`).pluck().all(name) as string[];
    const seq = db.prepare(`SELECT seq FROM sqlite_sequence WHERE name = ?`).pluck().get(name) as number | undefined;
    db.exec(table.replace(new RegExp(`^CREATE TABLE "?${name}"?`), `CREATE TABLE ${name}_new`).replace(inList(states), ors(states)));
    db.exec(`INSERT INTO ${name}_new SELECT * FROM ${name}; DROP TABLE ${name}; ALTER TABLE ${name}_new RENAME TO ${name};`);
    for (const index of indexes) db.exec(index);
    // IDs go on from where they were, not from the highest one left.
    if (seq !== undefined) db.prepare(`UPDATE sqlite_sequence SET seq = max(seq, ?) WHERE name = ?`).run(seq, name);
  }
}
