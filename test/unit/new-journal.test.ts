// A new request journal is made whole in one go, with nothing to scrub, and is what a reopened one is.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as cardData from '../../src/store/migrations/0016-card-data';
import { type Db, openDatabase } from '../../src/store/db';
import { Store } from '../../src/store/store';
import Database from 'better-sqlite3';

const schemaOf = (db: Db) => ({
  objects: db.prepare(`SELECT type, name, tbl_name, sql FROM journal.sqlite_master ORDER BY type, name`).all(),
  version: db.pragma('journal.user_version', { simple: true }),
});

describe('a new request journal', () => {
  afterEach(() => jest.restoreAllMocks());

  it('is made without scrubbing entries it cannot have', () => {
    const scrub = jest.spyOn(cardData, 'scrubEntries');
    const store = new Store(openDatabase(':memory:'));
    try {
      expect(scrub).not.toHaveBeenCalled();
      expect(schemaOf(store.db).version).toBe(16);
    } finally {
      store.close();
    }
  });

  it('is made without dropping the triggers of older files, which it cannot have', () => {
    const exec = jest.spyOn(Database.prototype, 'exec');
    const store = new Store(openDatabase(':memory:'));
    try {
      const journalSql = exec.mock.calls.map(([sql]) => sql).filter((sql) => sql.includes('journal.requests'));
      expect(journalSql).toHaveLength(1);
      expect(journalSql[0]).toContain('CREATE TRIGGER journal.request_shares_drop');
      expect(journalSql[0]).not.toContain('DROP TRIGGER');
    } finally {
      store.close();
    }
  });

  it('holds the tables, indexes, view and trigger a reopened journal file holds', () => {
    const dir = mkdtempSync(join(tmpdir(), 'split-sandbox-new-journal-'));
    try {
      const file = join(dir, 'sandbox.db');
      const fresh = Store.open(file);
      const made = schemaOf(fresh.db);
      fresh.close();
      const reopened = Store.open(file);
      try {
        expect(schemaOf(reopened.db)).toEqual(made);
      } finally {
        reopened.close();
      }
      const memory = new Store(openDatabase(':memory:'));
      try {
        expect(schemaOf(memory.db)).toEqual(made);
      } finally {
        memory.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
