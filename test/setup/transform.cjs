'use strict';
// jest's transform: every TypeScript file (the sources, the tests, their helpers and the examples)
// through esbuild, file by file. A clean clone transforms some 600 files before its first test ends,
// and esbuild does a file in a thirtieth of ts-jest's time (246 test files: 0.4 s of CPU against 10 s).
// Both write CommonJS with the same meaning for these files (no value import circles in src/, which
// test/architecture guards, so no export is read before it is set). One difference is undone: esbuild
// makes each export a getter that cannot be redefined, where TypeScript assigns a plain property, and
// tests spy on the sources' exports (jest.spyOn redefines a getter only where it is configurable).
// The other is kept out: ts-jest lifts jest.mock() calls above the imports, which esbuild does not, so
// a file that calls jest.mock() still goes through ts-jest.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src') + path.sep;
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
const { target, useDefineForClassFields, esModuleInterop, strict, alwaysStrict } = tsconfig.compilerOptions;

// esbuild's helpers as it writes them (their variables renamed where a source uses the name);
// checked, so that an esbuild that writes them otherwise fails loudly rather than leaving exports a spy
// cannot replace. A namespace or default import of a module compiled from TypeScript is, as
// TypeScript's own CommonJS has it, that module's exports object itself, not esbuild's copy of it: a
// test that spies on `import * as reading from '../../src/fixtures/read'` replaces what the sources
// call.
const EXPORT_GETTER = /__defProp\((\w+), (\w+), \{ get: all\[\2\], enumerable: true \}\)/;
const COPIED_GETTER = /__defProp\((\w+), (\w+), \{ get: \(\) => (\w+)\[\2\], enumerable:/;
const TO_ESM = /var __toESM = \((\w+), (\w+), (\w+)\) => \(\3 = /;
const configurable = (code) => {
  if (code.includes('var __export =')) {
    if (!EXPORT_GETTER.test(code)) throw new Error('test/setup/transform.cjs: esbuild writes __export otherwise than expected');
    code = code.replace(EXPORT_GETTER, '__defProp($1, $2, { get: all[$2], enumerable: true, configurable: true })');
  }
  if (code.includes('var __copyProps =')) {
    if (!COPIED_GETTER.test(code)) throw new Error('test/setup/transform.cjs: esbuild writes __copyProps otherwise than expected');
    code = code.replace(COPIED_GETTER, '__defProp($1, $2, { configurable: true, get: () => $3[$2], enumerable:');
  }
  if (code.includes('var __toESM =')) {
    if (!TO_ESM.test(code)) throw new Error('test/setup/transform.cjs: esbuild writes __toESM otherwise than expected');
    code = code.replace(TO_ESM, 'var __toESM = ($1, $2, $3) => !$2 && $1 && $1.__esModule ? $1 : ($3 = ');
  }
  return code;
};

const SELF = crypto.createHash('sha256').update(fs.readFileSync(__filename)).update(esbuild.version).update(JSON.stringify(tsconfig)).digest('hex');

// ts-jest (and TypeScript) are loaded only for a file that calls jest.mock() and that the cache does
// not have. tsconfig's isolatedModules makes ts-jest's output depend on the file, tsconfig and jest's
// configuration alone, as the key does.
const version = (name) => JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const TS_SELF = crypto.createHash('sha256').update(SELF).update(version('ts-jest')).update(version('typescript')).digest('hex');
if (tsconfig.compilerOptions.isolatedModules !== true) throw new Error('test/setup/transform.cjs: the cache key of a test file takes tsconfig\'s isolatedModules');

// jest.mock() and its kin, whose calls ts-jest hoists above the file's imports.
const HOISTED = /\bjest\s*\.\s*(?:mock|unmock|enableAutomock|disableAutomock|deepUnmock)\s*\(/;
function byEsbuild(source, filename) {
  return filename.endsWith('.ts') && (filename.startsWith(SRC) || !HOISTED.test(source));
}

module.exports = {
  byEsbuild,
  createTransformer(options) {
    let ts;
    const tsJest = () => (ts ??= require('ts-jest').default.createTransformer(options));
    return {
      canInstrument: false,
      getCacheKey(source, filename, transformOptions) {
        const esbuilt = byEsbuild(source, filename);
        const key = crypto.createHash('sha256').update(esbuilt ? SELF : TS_SELF).update('\0').update(filename).update('\0').update(source);
        if (!esbuilt) {
          const { configString, instrument, supportsStaticESM } = transformOptions;
          key.update('\0').update(JSON.stringify([configString, JSON.stringify(options ?? null), !!instrument, !!supportsStaticESM]));
        }
        return key.digest('hex');
      },
      process(source, filename, transformOptions) {
        if (!byEsbuild(source, filename)) return tsJest().process(source, filename, transformOptions);
        const out = esbuild.transformSync(source, {
          loader: 'ts',
          format: 'cjs',
          target: String(target).toLowerCase(),
          sourcemap: 'external',
          sourcefile: filename,
          sourcesContent: false,
          // strict: "use strict" on top, as TypeScript writes it (a frozen object's property assigned throws).
          tsconfigRaw: { compilerOptions: { useDefineForClassFields, esModuleInterop, strict, alwaysStrict } },
          // import() as TypeScript's CommonJS writes it, a require(): jest's vm contexts run no ES modules.
          supported: { 'dynamic-import': false },
        });
        return { code: configurable(out.code), map: out.map };
      },
    };
  },
};
