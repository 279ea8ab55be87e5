// Opens the SQLite database, sets it up for durable concurrent use and brings its schema up to date.
import { createHash } from 'node:crypto';
import { accessSync, constants, existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { MIGRATIONS } from './migrations';
import { PACKAGE_ROOT } from '../package-root';

export type Db = Database.Database;

export class DatabaseTooNewError extends Error {}

/**
 * The image's file name as the build knew it, in the bundle only (scripts/bundle.cjs writes it in, from
 * the migrations bundled with it): the digest is then not computed at a start, nor node:crypto loaded.
 */
declare const BUNDLED_FRESH_IMAGE_NAME: string | undefined;

/** A database file that cannot be opened, with its path and what is wrong with it. */
export class DatabaseOpenError extends Error {}

/**
 * The file name of the image of a new database with every migration of this version applied (written
 * by the build, scripts/fresh-database.cjs), named by a digest of the migrations: an image of other
 * migrations is never taken.
 */
export function freshImageName(): string {
  if (typeof BUNDLED_FRESH_IMAGE_NAME === 'string') return BUNDLED_FRESH_IMAGE_NAME;
  if (imageName === undefined) {
    const hash = createHash('sha1');
    for (const m of MIGRATIONS) hash.update(`${m.version}\n${m.sql}\n${m.up === undefined ? '' : 'up'}\n${(m.rebuilds ?? []).join(',')}\n`);
    imageName = `fresh-database-${hash.digest('hex').slice(0, 16)}.db`;
  }
  return imageName;
}
let imageName: string | undefined;

/**
 * The image for a new database, when the build wrote one for these migrations. Read once: its name
 * says what it holds, and a process may open many new databases (each test of a suite does).
 */
function freshImage(): Buffer | undefined {
  if (image !== undefined) return image;
  try {
    return (image = readFileSync(join(PACKAGE_ROOT, 'dist', freshImageName())));
  } catch {
    return undefined;
  }
}
let image: Buffer | undefined;

/**
 * A new database starts as a copy of the image of all migrations, when there is one: running them one
 * by one (tables rebuilt and all) was half of a start on a new file or in memory. A file is made from it
 * only where none was (nor its WAL); anything else opens as it is.
 */
function openNew(file: string, given?: Buffer): Db | undefined {
  if (file !== ':memory:' && (existsSync(file) || existsSync(`${file}-wal`))) return undefined;
  const image = given ?? freshImage();
  if (image === undefined) return undefined;
  if (file === ':memory:') return new Database(image);
  try {
    writeFileSync(file, image, { flag: 'wx' });
  } catch {
    return undefined;
  }
  return new Database(file);
}

/** A new in-memory database with every migration applied one by one, as the build's image of it (scripts/fresh-database.cjs). */
export function migratedImage(): Buffer {
  const db = openDatabase(':memory:', { image: false });
  try {
    return db.serialize();
  } finally {
    db.close();
  }
}

/**
 * @param options.image false: a new database runs every migration one by one; an image (a database's
 * serialize(), of this version's schema): a new database starts as a copy of it instead of the build's
 */
export function openDatabase(file: string, options: { image?: false | Buffer } = {}): Db {
  let db: Db | undefined;
  let pages: number;
  try {
    db = (options.image === false ? undefined : openNew(file, options.image)) ?? new Database(file);
    // The first read: a file that is not a database is found out here.
    pages = db.pragma('page_count', { simple: true }) as number;
  } catch (e) {
    db?.close();
    if (file === ':memory:') throw e;
    throw new DatabaseOpenError(`cannot open the database file ${file}: ${whyNotOpen(file, e as Error & { code?: string })}`);
  }
  // A new database lets pages freed by retention go back to the file system a few at a time
  // (PRAGMA incremental_vacuum). Only settable before the first table exists; an older file is
  // switched by useIncrementalVacuum().
  if (pages === 0) db.pragma('auto_vacuum = INCREMENTAL');
  if (file !== ':memory:') {
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // A second process on the same file waits for the lock instead of failing at once.
    db.pragma('busy_timeout = 5000');
    // Checkpoints (the only fsyncs under synchronous=NORMAL) every 40 MB of WAL instead of every 4 MB:
    // a fifth less time per write under load, and no loss on a crash of the process.
    db.pragma('wal_autocheckpoint = 10000');
  }
  // 8 MB of page cache (the indexes' upper levels and the newest pages); the rest is in the OS's
  // file cache, and repeated list pages are kept as JSON anyway. Each request's savepoint inside a
  // commit group keeps its undo pages in memory, not in a temp file. (One call: each sandbox of a
  // process, each test's, opens a database.)
  db.exec('PRAGMA cache_size = -8000; PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY');
  migrate(db);
  return db;
}

/** Brings the schema up to date (or only up to `upTo`, to see what an older version made). */
export function migrate(db: Db, upTo?: number): void {
  const current = db.pragma('user_version', { simple: true }) as number;
  const latest = MIGRATIONS[MIGRATIONS.length - 1]!.version;
  if (current > latest) {
    throw new DatabaseTooNewError(
      `this database was written by a newer split-sandbox (schema ${current}, this one knows ${latest}); use a newer version or another --db file`,
    );
  }
  const enforced = db.pragma('foreign_keys', { simple: true }) === 1;
  for (const m of MIGRATIONS) {
    if (m.version <= current || (upTo !== undefined && m.version > upTo)) continue;
    // Rebuilding a table (the only way SQLite changes a column's constraints) needs foreign keys off
    // while the old table is dropped, and that switch works only outside a transaction: the rebuilt
    // tables' references (the whole database's, for a migration with code) are checked instead,
    // before the migration commits.
    const rebuilding = m.up !== undefined || (m.rebuilds ?? []).length > 0;
    if (enforced && rebuilding) db.pragma('foreign_keys = OFF');
    try {
      db.transaction(() => {
        db.exec(m.sql);
        m.up?.(db);
        const checks = m.up !== undefined ? ['foreign_key_check'] : (m.rebuilds ?? []).map((t) => `foreign_key_check(${t})`);
        for (const check of enforced && rebuilding ? checks : []) {
          const broken = db.pragma(check) as unknown[];
          if (broken.length > 0) throw new Error(`migration ${m.version} would leave ${broken.length} broken references; nothing was changed`);
        }
        db.pragma(`user_version = ${m.version}`);
      }).immediate();
    } finally {
      if (enforced && rebuilding) db.pragma('foreign_keys = ON');
    }
  }
}

/**
 * Switches a database made without incremental auto-vacuum to it, with the one VACUUM that takes:
 * the whole file is rewritten (10 s for a 1 GB file here, with a WAL as large), so it is done only when
 * retention asks for it, at start, before anything is served. VACUUM cannot run inside a
 * transaction, hence here and not in a migration. Returns whether the file was rewritten.
 */
export function useIncrementalVacuum(db: Db): boolean {
  if (db.pragma('auto_vacuum', { simple: true }) === INCREMENTAL) return false;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
  return true;
}

const INCREMENTAL = 2;

/** What is wrong with a path SQLite would not open, in words: SQLite's own message names neither. */
function whyNotOpen(file: string, e: Error & { code?: string }): string {
  const full = resolve(file);
  const folder = dirname(full);
  const kind = (path: string) => {
    try {
      return statSync(path).isDirectory() ? 'folder' : 'file';
    } catch {
      return 'none';
    }
  };
  if (kind(full) === 'folder') return `it is a folder, not a file (name a file in it, such as ${join(file, 'split-sandbox.db')})`;
  if (kind(folder) === 'none') return `its folder ${folder} does not exist (the sandbox creates the file, not its folders)`;
  if (kind(folder) === 'file') return `${folder} is a file, not a folder`;
  if (e.code === 'SQLITE_NOTADB') return 'it is not a SQLite database (or it is damaged)';
  const can = (path: string, mode: number) => {
    try {
      accessSync(path, mode);
      return true;
    } catch {
      return false;
    }
  };
  if (kind(full) === 'file' && !can(full, constants.R_OK | constants.W_OK)) return 'no permission to read and write it';
  if (!can(folder, constants.W_OK)) return `no permission to write in its folder ${folder} (SQLite also writes the -wal and -shm files there)`;
  return e.message;
}
