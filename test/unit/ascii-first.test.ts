// The bundle's path-to-regexp tells parameter names' characters by ASCII first (scripts/ascii-first.cjs): the same
// answers as the module's own expressions, for every character, and the same routes parsed from its patched text.
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { join } from 'node:path';

/* eslint-disable @typescript-eslint/no-require-imports */
const { DECLARATIONS, asciiFirst, onFirstTest, withAsciiFirst } = require('../../scripts/ascii-first.cjs') as {
  DECLARATIONS: Record<string, string>;
  asciiFirst: (ascii: RegExp, full: () => RegExp) => { test(value: unknown): boolean };
  onFirstTest: (full: () => RegExp) => { test(value: unknown): boolean };
  withAsciiFirst: (text: string, file: string) => string;
};
/* eslint-enable @typescript-eslint/no-require-imports */

/** The value a declaration `const NAME = <expression>;` gives NAME, with asciiFirst and onFirstTest in scope. */
function declared(declaration: string): { test(value: unknown): boolean } {
  const expression = /^const \w+ = (.*);$/.exec(declaration)![1]!;
  return new Function('asciiFirst', 'onFirstTest', `return ${expression};`)(asciiFirst, onFirstTest) as { test(value: unknown): boolean };
}

describe("path-to-regexp's parameter names told by ASCII first", () => {
  it('answers as the Unicode expression it replaces for every code point, lone surrogates, pairs and other values', () => {
    const values: unknown[] = [undefined, null, '', 'ab', 'abc', 'undefined', 12, 1, true, {}, 'a\u0301', '\ud83d\ude00', '\ud835\udc00', '\ud800\ud800', 'splitId', '_x1', '$a', '1a', 'caf\u00e9', 'a-b', 'x\u200dy'];
    for (let c = 0; c <= 0x10ffff; c++) values.push(String.fromCodePoint(c));
    const entries = Object.entries(DECLARATIONS);
    expect(entries).toHaveLength(3);
    for (const [from, to] of entries) {
      const original = declared(from);
      const patched = declared(to);
      const differing = values.filter((v) => original.test(v) !== patched.test(v));
      expect(differing).toEqual([]);
    }
  });

  it('makes the Unicode expression only for a character beyond ASCII', () => {
    let made = 0;
    const id = asciiFirst(/^[$_A-Za-z]$/, () => {
      made++;
      return /^[$_\p{ID_Start}]$/u;
    });
    expect([id.test('a'), id.test('1'), id.test(undefined), id.test('$')]).toEqual([true, false, false, true]);
    expect(made).toBe(0);
    expect([id.test('é'), id.test('\u00b2'), id.test('ü')]).toEqual([true, false, true]);
    expect(made).toBe(1);
  });

  it("parses routes, with names beyond ASCII and without, as the installed module's own text does", () => {
    // The installed file itself (the tests' `path-to-regexp` is the one module the process shares).
    const file = join(__dirname, '..', '..', 'node_modules', 'path-to-regexp', 'dist', 'index.js');
    const load = (text: string) => {
      const m = new Module(file);
      m.filename = file;
      (m as unknown as { _compile(text: string, file: string): void })._compile(text, file);
      return m.exports as { parse(path: string): unknown; match(path: string): (input: string) => unknown; stringify(data: unknown): string };
    };
    const own = load(readFileSync(file, 'utf8'));
    const patched = load(withAsciiFirst(readFileSync(file, 'utf8'), file));
    const paths = ['/v1/payments/:id/splits/:splitId/capture', '/:café/:x1', '/files/*rest', '/x{/:y}/z', '/:a$b/:_c', '/:π-:ω', '/:"quoted name"', '/:"1a"', '/:"a"b'];
    for (const path of paths) {
      expect(patched.parse(path)).toEqual(own.parse(path));
      expect(patched.match(path)('/a/b')).toEqual(own.match(path)('/a/b'));
      expect(patched.stringify(patched.parse(path))).toBe(own.stringify(own.parse(path)));
    }
    const refusal = (parse: (path: string) => unknown, path: string) => {
      try {
        parse(path);
        return 'parsed';
      } catch (e) {
        return (e as Error).message;
      }
    };
    for (const bad of ['/:', '/:1a', '/:\u00b2', '/:-x']) {
      expect(refusal(patched.parse, bad)).toMatch(/Missing parameter name/);
      expect(refusal(patched.parse, bad)).toBe(refusal(own.parse, bad));
    }
  });

  it('stops the build when path-to-regexp no longer declares them', () => {
    expect(() => withAsciiFirst('const ID = 1;', 'index.js')).toThrow(/index\.js no longer declares const ID_START/);
  });
});
