// The database of a new test world once its fixtures are loaded: made once a run by the jest
// globalSetup (test/setup/validators.ts), in the run's folder, where each test file's first world copies it.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadFixtures, readFixtures } from '../../src/fixtures';
import { openDatabase } from '../../src/store/db';
import { Store } from '../../src/store/store';
import { RUN_FOLDER } from '../setup/run-folder';

const FILE = 'world.db';

/**
 * What a seeded world's start writes in a new database: the fixtures of `dir` loaded, and nothing else
 * (test/unit/run-world-image.test.ts holds it to a start's bytes). Without the rest of a start, whose
 * modules the jest process running this would otherwise load.
 */
export function loadedImage(dir: string): Buffer {
  const store = new Store(openDatabase(':memory:'));
  try {
    loadFixtures(store, readFixtures(dir));
    return store.db.serialize();
  } finally {
    store.close();
  }
}

/** Writes the run's image (whole, renamed into place: a test file may be reading the folder). */
export function writeRunImage(fixturesDir: string): void {
  const file = join(process.env[RUN_FOLDER]!, FILE);
  writeFileSync(`${file}.${process.pid}`, loadedImage(fixturesDir));
  renameSync(`${file}.${process.pid}`, file);
}

/** The run's image, when this run made one (a file run by other means loads its first world itself). */
export function runImage(): Buffer | undefined {
  const folder = process.env[RUN_FOLDER];
  const file = folder === undefined ? undefined : join(folder, FILE);
  return file !== undefined && existsSync(file) ? readFileSync(file) : undefined;
}
