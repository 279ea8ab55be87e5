'use strict';
// Build step: compiles every input schema (src/schemas/registry.ts) into plain JavaScript, one module
// per schema in dist/schemas/generated/ and one of its check, with the options the sandbox uses at run time. A start then
// loads only the few it needs (fixtures, scenarios), and no schema compiler at all.
const fs = require('node:fs');
const path = require('node:path');
const standaloneCode = require('ajv/dist/standalone').default;
const dist = path.resolve(__dirname, '..', 'dist', 'schemas');
const { VALIDATED } = require(path.join(dist, 'registry.js'));
const { CHECK_OPTIONS, createAjv } = require(path.join(dist, 'validator.js'));

const out = path.join(dist, 'generated');
fs.rmSync(out, { recursive: true, force: true });
fs.mkdirSync(out);
for (const [name, schema] of Object.entries(VALIDATED)) {
  const ajv = createAjv({ code: { source: true } });
  fs.writeFileSync(path.join(out, `${name}.js`), standaloneCode(ajv, ajv.compile(schema)));
  // Its check: valid or not, without the reasons (CHECK_OPTIONS), run first on every body.
  const check = createAjv({ ...CHECK_OPTIONS, code: { source: true } });
  fs.writeFileSync(path.join(out, `${name}.check.js`), standaloneCode(check, check.compile(schema)));
}
