// Compiles every input schema once per run, as the build does (scripts/compile-validators.cjs), so
// each test file loads the same validators as dist/ runs instead of compiling them again itself; the
// same for the tests' own schema checks (test/helpers/compiled-checks.ts); and writes the build's
// image of a new database (scripts/fresh-database.cjs) when it is missing, so each test's in-memory
// database starts as a copy of it instead of running every migration again, and the run's image of a
// test world's database (test/helpers/world-image.ts). It also makes the run's
// folder (test/setup/run-folder.ts), and starts the run's Chromium when a browser test is in the run.
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';
import { PACKAGE_ROOT } from '../../src/package-root';
import { openApiDocument } from '../../src/openapi/document';
import type { Schema } from '../../src/schemas/common';
import * as merchantSiteSchemas from '../../src/schemas/merchant-sites';
import * as preapprovalSchemas from '../../src/schemas/preapprovals';
import { VALIDATED } from '../../src/schemas/registry';
import * as responseSchemas from '../../src/schemas/responses';
import { AJV_OPTIONS, CHECK_OPTIONS, createAjv } from '../../src/schemas/validator';
import { freshImageName, migratedImage } from '../../src/store/db';
import { precompileAllAnswerChecks, precompileSchemaChecks } from '../helpers/compiled-checks';
import { HAVE_CHROMIUM, RUN_HAS_BROWSER_FILES, startChromium } from '../browser/chromium-start';
import { RUN_FOLDER, RUN_PID, openRunFolder } from './run-folder';
import { writeRunImage } from '../helpers/world-image';
import { DEFAULT_CONFIG } from '../../src/config';

/** Where they go: jest.config.js maps the sources' `./generated/<name>.js` here. */
export const VALIDATORS = join(__dirname, '..', '..', 'node_modules', '.cache', 'split-sandbox-validators');

export default function setUp(): void {
  openRunFolder();
  // First: it starts while the rest is compiled and the first files run, not in a browser file's time.
  if (process.env[RUN_HAS_BROWSER_FILES] === '1' && HAVE_CHROMIUM) startChromium(process.env[RUN_FOLDER]!, process.env[RUN_PID]!);
  compileValidators();
  // Every answer a test gets is checked against its address's document (test/setup/conformance.ts).
  precompileAllAnswerChecks((surface) => openApiDocument(surface, 'http://sandbox.test'));
  // The schemas tests check answers' bodies against (expectSchema in test/helpers/world.ts).
  precompileSchemaChecks(responseSchemaExports());
  writeFreshImage();
  // A test world's database once the fixtures are loaded: each file's first world copies it too.
  withCompiledValidators(() => writeRunImage(DEFAULT_CONFIG.fixtures));
}

/**
 * Runs `fn` where the sources' `./generated/<name>.js` are the validators compiled above, as
 * jest.config.js maps them for the test files: the fixtures the run's image is made of are then checked
 * as in a test file or a start, not by ajv compiling their schemas here (most of this setup's time).
 */
function withCompiledValidators(fn: () => void): void {
  const loader = Module as unknown as { _resolveFilename(request: string, ...rest: unknown[]): string };
  const resolve = loader._resolveFilename;
  loader._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
    const generated = /^\.\/generated\/(\w+(?:\.check)?)\.js$/.exec(request);
    return generated ? join(VALIDATORS, `${generated[1]}.js`) : resolve.call(this, request, ...rest);
  };
  try {
    fn();
  } finally {
    loader._resolveFilename = resolve;
  }
}

function responseSchemaExports(): Schema[] {
  return [responseSchemas, preapprovalSchemas, merchantSiteSchemas].flatMap((m) =>
    Object.values(m as Record<string, unknown>).filter((v): v is Schema => v !== null && typeof v === 'object' && !Array.isArray(v)),
  );
}

// The build's procedure (scripts/compile-validators.cjs), with the sources' schemas and ajv.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const building = require('../../scripts/compile-validators.cjs') as {
  DIGEST_FILE: string;
  validatorFiles(inputs: { VALIDATED: typeof VALIDATED; CHECK_OPTIONS: typeof CHECK_OPTIONS; createAjv: typeof createAjv }): [string, string][];
  validatorsDigest(inputs: { VALIDATED: typeof VALIDATED; AJV_OPTIONS: typeof AJV_OPTIONS; CHECK_OPTIONS: typeof CHECK_OPTIONS }): string | undefined;
};

function compileValidators(): void {
  // Compiled again whenever the schemas, ajv or the options change (named by a digest of them, written
  // last): no stale validator survives a schema change. Each file is written whole: a test that finds
  // none compiles its own at run time, as the sources do without a build. The build's copies are taken
  // when they are of the same digest, as after `npm ci` (whose build has just compiled them).
  const stamp = join(VALIDATORS, building.DIGEST_FILE);
  const digest = building.validatorsDigest({ VALIDATED, AJV_OPTIONS, CHECK_OPTIONS });
  if (!digest) throw new Error('test/setup/validators.ts: the sources of the validators are missing');
  const complete = (dir: string) => Object.keys(VALIDATED).every((name) => existsSync(join(dir, `${name}.js`)) && existsSync(join(dir, `${name}.check.js`)));
  const sameDigest = (dir: string) => existsSync(join(dir, building.DIGEST_FILE)) && readFileSync(join(dir, building.DIGEST_FILE), 'utf8') === digest;
  if (sameDigest(VALIDATORS) && complete(VALIDATORS)) return;
  rmSync(VALIDATORS, { recursive: true, force: true });
  mkdirSync(VALIDATORS, { recursive: true });
  const built = join(PACKAGE_ROOT, 'dist', 'schemas', 'generated');
  const files: [string, string][] =
    sameDigest(built) && complete(built)
      ? Object.keys(VALIDATED).flatMap((name) => [`${name}.js`, `${name}.check.js`].map((f): [string, string] => [f, readFileSync(join(built, f), 'utf8')]))
      : building.validatorFiles({ VALIDATED, CHECK_OPTIONS, createAjv });
  for (const [name, code] of files) {
    const file = join(VALIDATORS, name);
    writeFileSync(`${file}.${process.pid}`, code);
    renameSync(`${file}.${process.pid}`, file);
  }
  writeFileSync(stamp, digest);
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
