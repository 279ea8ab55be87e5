// A --db that cannot be opened is refused with its path and what is wrong with it, not SQLite's own
// "unable to open database file"; the CLI says the same and exits 1.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Store } from '../../src/store/store';
import { ensureBuilt, run } from '../cli/process';

describe('opening a database file that cannot be opened', () => {
  let tmp: string;
  beforeEach(() => (tmp = mkdtempSync(join(tmpdir(), 'split-sandbox-db-'))));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('a folder that does not exist', () => {
    const file = join(tmp, 'no', 'such', 'x.db');
    expect(() => Store.open(file)).toThrow(
      `cannot open the database file ${file}: its folder ${join(tmp, 'no', 'such')} does not exist (the sandbox creates the file, not its folders)`,
    );
  });

  it('a folder given as the file', () => {
    expect(() => Store.open(tmp)).toThrow(`cannot open the database file ${tmp}: it is a folder, not a file (name a file in it, such as ${join(tmp, 'split-sandbox.db')})`);
  });

  it('a file that is no SQLite database, and a file where its folder should be', () => {
    const file = join(tmp, 'notes.txt');
    writeFileSync(file, 'These are not the pages of a database. '.repeat(10));
    expect(() => Store.open(file)).toThrow(`cannot open the database file ${file}: it is not a SQLite database (or it is damaged)`);
    expect(() => Store.open(join(file, 'x.db'))).toThrow(`cannot open the database file ${join(file, 'x.db')}: ${file} is a file, not a folder`);
  });

  it('still opens a new file in a folder that exists, and :memory:', () => {
    mkdirSync(join(tmp, 'data'));
    Store.open(join(tmp, 'data', 'x.db')).close();
    Store.open(':memory:').close();
  });

  it('start --db says it on stderr and exits 1', async () => {
    ensureBuilt();
    const r = run(['start', '--port', '0', '--card-port', '0', '--db', '/nonexistent/dir/x.db']);
    expect((await r.exited).code).toBe(1);
    expect(r.stderr()).toBe('split-sandbox: cannot open the database file /nonexistent/dir/x.db: its folder /nonexistent/dir does not exist (the sandbox creates the file, not its folders)\n');
    const folder = run(['start', '--port', '0', '--card-port', '0', '--db', tmp]);
    expect((await folder.exited).code).toBe(1);
    expect(folder.stderr()).toContain(`cannot open the database file ${tmp}: it is a folder, not a file`);
  }, 120_000);
});
