// jest's transform (test/setup/transform.cjs): esbuild's CommonJS, brought to what TypeScript's means.
import path from 'node:path';
import vm from 'node:vm';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const { byEsbuild, createTransformer } = require('../setup/transform.cjs') as {
  byEsbuild(source: string, filename: string): boolean;
  createTransformer(options?: unknown): { process(source: string, filename: string, options: unknown): { code: string } };
};

const ROOT = path.resolve(__dirname, '..', '..');
const transformer = createTransformer();
const transformOptions = { configString: '{}', instrument: false, supportsStaticESM: false, config: { rootDir: ROOT, cwd: ROOT } };

/** Runs a transformed file as CommonJS, its require() answering from `modules`. */
function run(source: string, modules: Record<string, unknown>, file = 'test/unit/example.ts'): Record<string, unknown> {
  const { code } = transformer.process(source, path.join(ROOT, file), transformOptions);
  const module = { exports: {} as Record<string, unknown> };
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`not found: ${name}`);
    return modules[name];
  };
  vm.runInNewContext(`(function (exports, require, module) {${code}\n})`, { Promise, Object })(module.exports, require, module);
  return module.exports;
}

describe('the transform of test files', () => {
  it('gives a namespace or default import of a compiled module its exports object itself, so a spy on it replaces what its callers call', () => {
    const compiled = Object.defineProperty({ read: () => 'real' }, '__esModule', { value: true });
    const out = run("import * as reading from './read';\nexport const ns = reading;", { './read': compiled });
    expect(out.ns).toBe(compiled);
  });

  it('gives a default import of a plain CommonJS module that module, as esModuleInterop does', () => {
    const plain = { read: () => 'real' };
    const out = run("import reading from 'plain';\nexport const d = reading;", { plain });
    expect(out.d).toBe(plain);
  });

  it('leaves its exports redefinable, so jest.spyOn can replace them', () => {
    const out = run('export function f() { return 1; }', {});
    expect(Object.getOwnPropertyDescriptor(out, 'f')?.configurable).toBe(true);
  });

  it('runs a file in strict mode, as TypeScript’s CommonJS does', () => {
    const out = run("export const write = () => { const o = Object.freeze({ a: 1 }); (o as { a: number }).a = 2; };", {});
    // The TypeError of the file's own context, so matched by its message.
    expect(out.write as () => void).toThrow(/Cannot assign to read only property/);
  });

  it('makes import() a require(), as the vm contexts of jest run no ES modules', async () => {
    const out = run("export const load = () => import('dep');", { dep: { x: 42 } });
    const loaded = (await (out.load as () => Promise<{ x: number; default: unknown }>)()) as { x: number };
    expect(loaded.x).toBe(42);
  });

  it('leaves a file that mocks a module with jest to ts-jest, which lifts that call above the imports', () => {
    // Built so that this file's own text does not read as such a call.
    const mock = ['jest', 'mock'].join('.');
    expect(byEsbuild(`import { read } from './read';\n${mock}('./read');`, path.join(ROOT, 'test/unit/mocked.ts'))).toBe(false);
    expect(byEsbuild(`import { read } from './read';\n${mock} ('./read');`, path.join(ROOT, 'test/unit/mocked.ts'))).toBe(false);
    expect(byEsbuild("import { read } from './read';\njest.spyOn(x, 'read');", path.join(ROOT, 'test/unit/spied.ts'))).toBe(true);
    expect(byEsbuild(`${mock}('./read');`, path.join(ROOT, 'src/any.ts'))).toBe(true);
  });
});
