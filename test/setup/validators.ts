// Compiles every input schema once per run, as the build does (scripts/compile-validators.cjs), so
// each test file loads the same validators as dist/ runs instead of compiling them again itself; and
// writes the build's image of a new database (scripts/fresh-database.cjs) when it is missing, so each
// test's in-memory database starts as a copy of it instead of running every migration again.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import standaloneCode from 'ajv/dist/standalone';
import { PACKAGE_ROOT } from '../../src/package-root';
import { VALIDATED } from '../../src/schemas/registry';
import { createAjv } from '../../src/schemas/validator';
import { freshImageName, migratedImage } from '../../src/store/db';

/** Where they go: jest.config.js maps the sources' `./generated/<name>.js` here. */
export const VALIDATORS = join(__dirname, '..', '..', 'node_modules', '.cache', 'split-sandbox-validators');

export default function setUp(): void {
  compileValidators();
  writeFreshImage();
}

function compileValidators(): void {
  // Written afresh each run (no stale validator survives a schema change), each file whole: a test
  // that finds none compiles its own at run time, as the sources do without a build.
  rmSync(VALIDATORS, { recursive: true, force: true });
  mkdirSync(VALIDATORS, { recursive: true });
  for (const [name, schema] of Object.entries(VALIDATED)) {
    const ajv = createAjv({ code: { source: true } });
    const file = join(VALIDATORS, `${name}.js`);
    writeFileSync(`${file}.${process.pid}`, standaloneCode(ajv, ajv.compile(schema)));
    renameSync(`${file}.${process.pid}`, file);
  }
}

function writeFreshImage(): void {
  // Named by a digest of the migrations, so an image of other migrations is never taken; written
  // whole (renamed into place), as a test may read it while another run writes it.
  const dist = join(PACKAGE_ROOT, 'dist');
  const image = join(dist, freshImageName());
  if (existsSync(image)) return;
  mkdirSync(dist, { recursive: true });
  // Images of other migrations are removed, as the build removes them: dist/ is what ships.
  for (const old of readdirSync(dist).filter((f) => /^fresh-database-[0-9a-f]+\.db$/.test(f))) rmSync(join(dist, old), { force: true });
  writeFileSync(`${image}.${process.pid}`, migratedImage());
  renameSync(`${image}.${process.pid}`, image);
}
