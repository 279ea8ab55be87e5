'use strict';
// Build step: compiles every input schema (src/schemas/registry.ts) into plain JavaScript, one module
// per schema in dist/schemas/generated/ and one of its check, with the options the sandbox uses at run time. A start then
// loads only the few it needs (fixtures, scenarios), and no schema compiler at all. The tests compile
// the same files from the sources with the same functions (test/setup/validators.ts), and take the
// build's instead when the build's digest says they are made from the same inputs.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..');
/** The file beside the validators naming what they were made from (validatorsDigest). */
const DIGEST_FILE = 'digest';

/** Each input schema's validator and its check, as [file name, code]. */
function validatorFiles({ VALIDATED, CHECK_OPTIONS, createAjv }) {
  const standaloneCode = require('ajv/dist/standalone').default;
  const files = [];
  for (const [name, schema] of Object.entries(VALIDATED)) {
    const ajv = createAjv({ code: { source: true } });
    files.push([`${name}.js`, standaloneCode(ajv, ajv.compile(schema))]);
    // Its check: valid or not, without the reasons (CHECK_OPTIONS), run first on every body.
    const check = createAjv({ ...CHECK_OPTIONS, code: { source: true } });
    files.push([`${name}.check.js`, standaloneCode(check, check.compile(schema))]);
  }
  return files;
}

/**
 * What the validators are made from: the schemas, ajv's version and options, the source that makes
 * ajv (src/schemas/validator.ts) and this file. Undefined where the sources are not at hand.
 */
function validatorsDigest({ VALIDATED, AJV_OPTIONS, CHECK_OPTIONS }) {
  const made = path.join(ROOT, 'src', 'schemas', 'validator.ts');
  if (!fs.existsSync(made)) return undefined;
  const sources = [__filename, made].map((f) => fs.readFileSync(f, 'utf8'));
  const ajvVersion = JSON.parse(fs.readFileSync(require.resolve('ajv/package.json'), 'utf8')).version;
  return crypto.createHash('sha256').update(JSON.stringify([ajvVersion, AJV_OPTIONS, CHECK_OPTIONS, VALIDATED, ...sources])).digest('hex');
}

module.exports = { DIGEST_FILE, validatorFiles, validatorsDigest };

if (require.main === module) {
  const dist = path.join(ROOT, 'dist', 'schemas');
  const { VALIDATED } = require(path.join(dist, 'registry.js'));
  const { AJV_OPTIONS, CHECK_OPTIONS, createAjv } = require(path.join(dist, 'validator.js'));
  const out = path.join(dist, 'generated');
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out);
  for (const [file, code] of validatorFiles({ VALIDATED, CHECK_OPTIONS, createAjv })) fs.writeFileSync(path.join(out, file), code);
  const digest = validatorsDigest({ VALIDATED, AJV_OPTIONS, CHECK_OPTIONS });
  if (digest) fs.writeFileSync(path.join(out, DIGEST_FILE), digest);
}
