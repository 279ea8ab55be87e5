'use strict';
// jest's transform: the sources (src/) through esbuild, file by file; the tests, their helpers and the
// examples through ts-jest. A clean clone transforms some 600 files before its first test ends, and
// esbuild does a source file in a tenth of TypeScript's time. Both write CommonJS with the same
// meaning for these files (no value import circles in src/, which test/architecture guards, so no
// export is read before it is set). One difference is undone: esbuild makes each export a getter that
// cannot be redefined, where TypeScript assigns a plain property, and tests spy on the sources'
// exports (jest.spyOn redefines a getter only where it is configurable).
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const ROOT = path.resolve(__dirname, '..', '..');
const SRC = path.join(ROOT, 'src') + path.sep;
const tsconfig = JSON.parse(fs.readFileSync(path.join(ROOT, 'tsconfig.json'), 'utf8'));
const { target, useDefineForClassFields, esModuleInterop } = tsconfig.compilerOptions;

// esbuild's helpers as it writes them (their variables renamed where a source uses the name);
// checked, so that an esbuild that writes them otherwise fails loudly rather than leaving exports a spy
// cannot replace.
const EXPORT_GETTER = /__defProp\((\w+), (\w+), \{ get: all\[\2\], enumerable: true \}\)/;
const COPIED_GETTER = /__defProp\((\w+), (\w+), \{ get: \(\) => (\w+)\[\2\], enumerable:/;
const configurable = (code) => {
  if (code.includes('var __export =')) {
    if (!EXPORT_GETTER.test(code)) throw new Error('test/setup/transform.cjs: esbuild writes __export otherwise than expected');
    code = code.replace(EXPORT_GETTER, '__defProp($1, $2, { get: all[$2], enumerable: true, configurable: true })');
  }
  if (code.includes('var __copyProps =')) {
    if (!COPIED_GETTER.test(code)) throw new Error('test/setup/transform.cjs: esbuild writes __copyProps otherwise than expected');
    code = code.replace(COPIED_GETTER, '__defProp($1, $2, { configurable: true, get: () => $3[$2], enumerable:');
  }
  return code;
};

const SELF = crypto.createHash('sha256').update(fs.readFileSync(__filename)).update(esbuild.version).update(JSON.stringify(tsconfig)).digest('hex');

// ts-jest (and TypeScript) are loaded only to transform a file the cache does not have: a worker
// whose files are all cached no longer loads them (a third of a second). tsconfig's isolatedModules
// makes ts-jest's output depend on the file, tsconfig and jest's configuration alone, as the key does.
const version = (name) => JSON.parse(fs.readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;
const TS_SELF = crypto.createHash('sha256').update(SELF).update(version('ts-jest')).update(version('typescript')).digest('hex');
if (tsconfig.compilerOptions.isolatedModules !== true) throw new Error('test/setup/transform.cjs: the cache key of a test file takes tsconfig\'s isolatedModules');

function fromSources(filename) {
  return filename.startsWith(SRC) && filename.endsWith('.ts');
}

module.exports = {
  createTransformer(options) {
    let ts;
    const tsJest = () => (ts ??= require('ts-jest').default.createTransformer(options));
    return {
      canInstrument: false,
      getCacheKey(source, filename, transformOptions) {
        const key = crypto.createHash('sha256').update(fromSources(filename) ? SELF : TS_SELF).update('\0').update(filename).update('\0').update(source);
        if (!fromSources(filename)) {
          const { configString, instrument, supportsStaticESM } = transformOptions;
          key.update('\0').update(JSON.stringify([configString, JSON.stringify(options ?? null), !!instrument, !!supportsStaticESM]));
        }
        return key.digest('hex');
      },
      process(source, filename, transformOptions) {
        if (!fromSources(filename)) return tsJest().process(source, filename, transformOptions);
        const out = esbuild.transformSync(source, {
          loader: 'ts',
          format: 'cjs',
          target: String(target).toLowerCase(),
          sourcemap: 'external',
          sourcefile: filename,
          sourcesContent: false,
          tsconfigRaw: { compilerOptions: { useDefineForClassFields, esModuleInterop } },
        });
        return { code: configurable(out.code), map: out.map };
      },
    };
  },
};
