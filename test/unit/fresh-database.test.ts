// A new database (in memory, or a file not there yet) starts as a copy of the build's image of every
// migration, which is the database the migrations make one by one; a file that exists opens as it is.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PACKAGE_ROOT } from '../../src/package-root';
import { freshImageName, migratedImage, openDatabase } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';

const IMAGE = join(PACKAGE_ROOT, 'dist', freshImageName());
let made = false;
let dir: string;

beforeAll(() => {
  // The build writes the image; a test run from the sources alone writes it as the build does.
  if (!existsSync(IMAGE) && existsSync(join(PACKAGE_ROOT, 'dist'))) {
    writeFileSync(IMAGE, migratedImage());
    made = true;
  }
  dir = mkdtempSync(join(tmpdir(), 'fresh-database-'));
});
afterAll(() => {
  if (made) rmSync(IMAGE, { force: true });
  rmSync(dir, { recursive: true, force: true });
});

/** What a database holds: its schema, its version, its vacuum mode, and every row. */
function contents(db: Database.Database) {
  const objects = db.prepare("SELECT type, name, tbl_name, sql FROM main.sqlite_master ORDER BY type, name").all() as { type: string; name: string }[];
  const rows = Object.fromEntries(objects.filter((o) => o.type === 'table').map((o) => [o.name, db.prepare(`SELECT * FROM main."${o.name}"`).all()]));
  return { objects, rows, version: db.pragma('user_version', { simple: true }), autoVacuum: db.pragma('auto_vacuum', { simple: true }) };
}

describe('a new database', () => {
  it('in memory is the image, with no migration run, and holds what the migrations make one by one', () => {
    const ups = MIGRATIONS.filter((m) => m.up !== undefined).map((m) => jest.spyOn(m, 'up'));
    const fresh = openDatabase(':memory:');
    for (const up of ups) expect(up).not.toHaveBeenCalled();
    for (const up of ups) up.mockRestore();
    const stepByStep = openDatabase(':memory:', { image: false });
    expect(contents(fresh)).toEqual(contents(stepByStep));
    expect(contents(fresh).version).toBe(MIGRATIONS[MIGRATIONS.length - 1]!.version);
    // It takes writes as any database does.
    fresh.prepare("INSERT INTO sites (site_id, api_key, name) VALUES (1, 'k', 'one')").run();
    fresh.close();
    stepByStep.close();
  });

  it('on a file not there yet is the image in WAL mode; a file that exists opens as it is', () => {
    const file = join(dir, 'new.db');
    const db = openDatabase(file);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    const stepByStep = openDatabase(':memory:', { image: false });
    expect(contents(db)).toEqual(contents(stepByStep));
    db.prepare("INSERT INTO sites (site_id, api_key, name) VALUES (1, 'k', 'one')").run();
    db.close();
    stepByStep.close();
    const again = openDatabase(file);
    expect(again.prepare('SELECT name FROM sites WHERE site_id = 1').pluck().get()).toBe('one');
    again.close();
  });
});
