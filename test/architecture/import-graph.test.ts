// The house's import rules, read from src/ itself: no circle of value imports, and no value import
// from a floor above (types may cross either way: they are erased from the built JavaScript).
import { FLOORS, type Edge, floorOf, importGraph, importsOf, upwardImports, valueCircles } from './import-graph';

const edge = (from: string, to: string, typeOnly = false): Edge => ({ from, to, typeOnly });

describe('the import graph of src/', () => {
  const edges = importGraph();

  it('tells type-only imports from those that carry values', () => {
    const source = [
      "import type { A } from './a';",
      "import { type B, type C } from './b';",
      "import { type D, e } from './c';",
      "import f from './d';",
      "import * as g from './e';",
      "import './f';",
      "export type { H } from './g';",
      "export { i } from './h';",
      "const j = require('./i');",
      "type K = import('./j').K;",
      "async function l() { return import('./k'); }",
    ].join('\n');
    expect(importsOf(source)).toEqual([
      { specifier: './a', typeOnly: true },
      { specifier: './b', typeOnly: true },
      { specifier: './c', typeOnly: false },
      { specifier: './d', typeOnly: false },
      { specifier: './e', typeOnly: false },
      { specifier: './f', typeOnly: false },
      { specifier: './g', typeOnly: true },
      { specifier: './h', typeOnly: false },
      { specifier: './i', typeOnly: false },
      { specifier: './k', typeOnly: false },
    ]);
  });

  it('is read whole from src/', () => {
    const has = (from: string, to: string, typeOnly: boolean) => edges.some((e) => e.from === from && e.to === to && e.typeOnly === typeOnly);
    expect(edges.length).toBeGreaterThan(500);
    expect(has('main', 'http/app', false)).toBe(true);
    expect(has('http/pipeline', 'services/context', true)).toBe(true);
  });

  it('finds a circle of value imports, and none of types only', () => {
    expect(valueCircles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('c', 'd')])).toEqual([['a', 'b', 'c']]);
    expect(valueCircles([edge('a', 'b'), edge('b', 'a', true)])).toEqual([]);
    expect(valueCircles([edge('a', 'a')])).toEqual([['a']]);
  });

  it('has no circle of value imports', () => {
    expect(valueCircles(edges)).toEqual([]);
  });

  it('imports values only from its own floor and those below', () => {
    expect(upwardImports([edge('faults/faults', 'openapi/document'), edge('faults/faults', 'openapi/document', true)])).toEqual(['faults/faults → openapi/document']);
    expect(upwardImports(edges)).toEqual([]);
  });

  it('puts every folder and top-level file of src/ on a floor, the route catalogue beside the schemas', () => {
    for (const e of edges) expect(() => [floorOf(e.from), floorOf(e.to)]).not.toThrow();
    expect(FLOORS.find((f) => f.includes('routes'))).toContain('schemas');
  });
});
