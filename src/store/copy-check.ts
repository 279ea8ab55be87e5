// What a database copy (a snapshot) must be before its rows replace the live ones: the tables the
// migrations make, at the copy's schema version, and in each row values the sandbox can serve (JSON
// that parses, amounts in digit-string range, times of 14 digits, known statuses, whole references).
// Anything else is refused with the table and the row named, before any live row changes.
import Database from 'better-sqlite3';
import { Status } from '../domain/statuses';
import { FIRST_WIRE_MS, LAST_WIRE_MS } from '../domain/time';
import { migrate } from './db';
import { MIGRATIONS } from './migrations';

/** The copy is not one this sandbox can bring in; the message names the table and row at fault. */
export class CopyRejected extends Error {}

type Db = Database.Database;

const FIRST_MS = FIRST_WIRE_MS;
const LAST_MS = LAST_WIRE_MS;
const KNOWN_STATUSES = Object.values(Status).join(', ');

/** Columns holding JSON, and the kind of value the code reading them expects. */
const JSON_COLUMNS: Readonly<Record<string, Readonly<Record<string, 'object' | 'array'>>>> = {
  payments: { customer: 'object', billing_address: 'object', shipping_address: 'object', details: 'object', card: 'object', articles: 'array', preapproval_details: 'object' },
  refunds: { articles: 'array' },
  sites: { notify_statuses: 'array', methods: 'array' },
  methods: { details_template: 'object', info: 'object' },
  notifications: { body: 'object' },
  faults: { match_json: 'object', action_json: 'object' },
  story_scenarios: { body: 'object' },
  preapprovals: { customer: 'object', billing_address: 'object' },
  payouts: { customer: 'object', billing_address: 'object', card: 'object', reasons: 'array' },
  card_authentications: { customer: 'object', billing_address: 'object', card: 'object' },
};

/** What one column's values must be, as SQL that is true for a bad value, and the words that say so. */
interface Rule {
  column: string;
  bad: string;
  says: string;
}

/** The rule a column gets, from its name (times end in _at, amounts in amount) or the JSON list. */
function ruleOf(table: string, column: string): Rule | null {
  const c = `"${column}"`;
  const json = JSON_COLUMNS[table]?.[column];
  if (json !== undefined) {
    return { column, bad: `(CASE WHEN ${c} IS NULL THEN 0 WHEN json_valid(${c}) THEN json_type(${c}) <> '${json}' ELSE 1 END)`, says: `is not a JSON ${json}` };
  }
  if (column === 'at' || column.endsWith('_at') || column === 'sandbox_ms') {
    return { column, bad: `(${c} NOT BETWEEN ${FIRST_MS} AND ${LAST_MS})`, says: 'is not a time of years 1000 to 9999 (epoch ms)' };
  }
  if (column === 'amount' || column.endsWith('_amount')) {
    return { column, bad: `(${c} NOT BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER})`, says: `is not an amount from 0 to ${Number.MAX_SAFE_INTEGER}` };
  }
  if (column === 'status_id') return { column, bad: `(${c} NOT IN (${KNOWN_STATUSES}))`, says: `is not a status (${KNOWN_STATUSES})` };
  return null;
}

interface Table {
  name: string;
  /** Its CREATE TABLE, whitespace folded. */
  sql: string;
  columns: string[];
  /** The columns naming a row: its primary key, or rowid. */
  key: string[];
}

const folded = (sql: string) => sql.replace(/\s+/g, ' ').trim();

function tablesOf(db: Db, schema: string): Map<string, Table> {
  const rows = db
    .prepare(`SELECT name, sql FROM "${schema}".sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name`)
    .all() as { name: string; sql: string }[];
  const out = new Map<string, Table>();
  for (const r of rows) {
    const info = db.prepare(`SELECT name, pk FROM pragma_table_info(?, ?) ORDER BY cid`).all(r.name, schema) as { name: string; pk: number }[];
    const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    out.set(r.name, { name: r.name, sql: folded(r.sql), columns: info.map((c) => c.name), key: key.length > 0 ? key : ['rowid'] });
  }
  return out;
}

const EXPECTED = new Map<number, Map<string, Table>>();

/** The tables the migrations make up to `version`, made once per version on an in-memory database. */
export function expectedTables(version: number): Map<string, Table> {
  let tables = EXPECTED.get(version);
  if (tables === undefined) {
    const db = new Database(':memory:');
    try {
      migrate(db, version);
      tables = tablesOf(db, 'main');
    } finally {
      db.close();
    }
    EXPECTED.set(version, tables);
  }
  return tables;
}

/**
 * Checks that the database `schema` (`main`, or the name a copy is attached under) has the tables
 * of a split-sandbox database of its schema version; returns that version. Tables of its own beyond
 * those are left alone (nothing reads them).
 */
export function checkCopySchema(db: Db, schema = 'main'): number {
  const version = db.pragma(`"${schema}".user_version`, { simple: true }) as number;
  if (version === 0) throw new CopyRejected('it is not a split-sandbox database (it has no schema version)');
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
  // A newer one is said as such by whoever restores (CopyTooNewError); these are only the known ones.
  const expected = expectedTables(Math.min(version, latest));
  const found = tablesOf(db, schema);
  for (const t of expected.values()) {
    const there = found.get(t.name);
    if (there === undefined) throw new CopyRejected(`table ${t.name} is missing (schema ${version})`);
    if (there.sql !== t.sql) throw new CopyRejected(`table ${t.name} is not the one split-sandbox makes at schema ${version}: ${there.sql.slice(0, 200)}`);
  }
  return version;
}

/** One query per table: its first row (by key) holding a value the sandbox cannot serve. */
export interface ValueCheck {
  table: string;
  /** Returns the row's key and, per rule, 1 when that column is at fault; no row when all are fine. */
  sql: string;
  key: string[];
  rules: { column: string; says: string }[];
}

/**
 * The queries that find bad values in the latest schema's tables of `schema`. Plain SQL, so that a
 * worker thread can run them on a connection of its own (`firstBadValue` runs them here).
 */
export function valueChecks(schema = 'main'): ValueCheck[] {
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
  const checks: ValueCheck[] = [];
  for (const t of expectedTables(latest).values()) {
    const rules = t.columns.map((c) => ruleOf(t.name, c)).filter((r): r is Rule => r !== null);
    if (rules.length === 0) continue;
    const key = t.key.map((k, i) => `"${k}" AS k${i}`).join(', ');
    const flags = rules.map((r, i) => `${r.bad} AS f${i}`).join(', ');
    checks.push({
      table: t.name,
      sql: `SELECT ${key}, ${flags} FROM "${schema}"."${t.name}" WHERE ${rules.map((r) => r.bad).join(' OR ')} LIMIT 1`,
      key: t.key,
      rules: rules.map(({ column, says }) => ({ column, says })),
    });
  }
  // Every JSON column named above exists: a renamed one would otherwise go unchecked.
  for (const [table, columns] of Object.entries(JSON_COLUMNS)) {
    for (const column of Object.keys(columns)) {
      if (!expectedTables(latest).get(table)?.columns.includes(column)) throw new Error(`copy-check: ${table}.${column} is not in the schema`);
    }
  }
  return checks;
}

/** The words for a row a check found (the row as the check's query returned it). */
export function badValueMessage(check: Pick<ValueCheck, 'table' | 'key' | 'rules'>, row: Record<string, unknown>): string {
  const key = check.key.map((k, i) => `${k} ${JSON.stringify(row[`k${i}`])}`).join(', ');
  const faults = check.rules.filter((_, i) => row[`f${i}`] !== 0 && row[`f${i}`] !== null).map((r) => `${r.column} ${r.says}`);
  return `table ${check.table}, row ${key}: ${faults.join('; ')}`;
}

/** A query that returns a row only when something is wrong, and the words for that row. */
export interface CopyQuery {
  sql: string;
  says(row: Record<string, unknown>): string;
}

/**
 * Every check of the values of a copy of the latest schema attached as `schema` (or opened as
 * `main`): the sandbox clock (a copy without one keeps the live clock), the column rules, a merchant
 * at least, and the references between rows. Plain SQL, so that a worker thread can run them on a
 * connection of its own; checkCopyValues runs them here.
 */
export function copyQueries(schema = 'main'): CopyQuery[] {
  return [
    {
      sql: `SELECT sandbox_ms AS v FROM "${schema}".sandbox_clock WHERE id = 1 AND sandbox_ms NOT BETWEEN ${FIRST_MS} AND ${LAST_MS}`,
      says: (row) => `table sandbox_clock, row id 1: sandbox_ms ${String(row.v)} is not a time of years 1000 to 9999`,
    },
    ...valueChecks(schema).map((check) => ({ sql: check.sql, says: (row: Record<string, unknown>) => badValueMessage(check, row) })),
    {
      sql: `SELECT 1 AS none WHERE NOT EXISTS (SELECT 1 FROM "${schema}".sites)`,
      says: () => 'table sites has no merchant: every API call would be refused',
    },
    {
      sql: `SELECT "table" AS t, rowid AS r, parent AS p FROM pragma_foreign_key_check(NULL, '${schema}') LIMIT 1`,
      says: (row) => `table ${String(row.t)}, row rowid ${String(row.r)}: refers to a row of ${String(row.p)} that is not there`,
    },
  ];
}

/** Runs copyQueries on `db`; throws CopyRejected naming the first table and row at fault. */
export function checkCopyValues(db: Db, schema = 'main'): void {
  for (const q of copyQueries(schema)) {
    const row = db.prepare(q.sql).get() as Record<string, unknown> | undefined;
    if (row !== undefined) throw new CopyRejected(q.says(row));
  }
}

/** Both checks on a copy of the latest schema: what a restore calls before any live row changes. */
export function checkCopy(db: Db, schema = 'main'): void {
  checkCopySchema(db, schema);
  checkCopyValues(db, schema);
}
