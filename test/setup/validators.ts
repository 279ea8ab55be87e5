// Compiles every input schema once per run, as the build does (scripts/compile-validators.cjs), so
// each test file loads the same validators as dist/ runs instead of compiling them again itself.
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import standaloneCode from 'ajv/dist/standalone';
import { VALIDATED } from '../../src/schemas/registry';
import { createAjv } from '../../src/schemas/validator';

/** Where they go: jest.config.js maps the sources' `./generated/<name>.js` here. */
export const VALIDATORS = join(__dirname, '..', '..', 'node_modules', '.cache', 'split-sandbox-validators');

export default function compileValidators(): void {
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
