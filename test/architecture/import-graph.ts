// The import graph of src/: which module imports which, by values or by types only, read with the
// TypeScript parser (no type checking: a file's own syntax says whether an import is type-only).
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import ts from 'typescript';

export const SRC = path.resolve(__dirname, '../../src');

/** One import of one module by another, both as paths under src/ without `.ts` (`http/app`). */
export interface Edge {
  from: string;
  to: string;
  /** Only types cross it: erased from the built JavaScript, so it neither runs nor orders anything. */
  typeOnly: boolean;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

const moduleName = (file: string) => path.relative(SRC, file).replace(/\\/g, '/').replace(/\.ts$/, '');

/** The src/ module a relative specifier names, if it names one (`../x` may be `x.ts` or `x/index.ts`). */
function resolve(fromFile: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [`${base}.ts`, path.join(base, 'index.ts')]) if (fs.existsSync(candidate)) return moduleName(candidate);
  return undefined;
}

/** An import declaration that brings in types only: `import type …`, or every named binding marked `type`. */
function importIsTypeOnly(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // `import './x'` runs the module
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

function exportIsTypeOnly(node: ts.ExportDeclaration): boolean {
  if (node.isTypeOnly) return true;
  const clause = node.exportClause;
  return clause !== undefined && ts.isNamedExports(clause) && clause.elements.length > 0 && clause.elements.every((e) => e.isTypeOnly);
}

/** One import as a source text writes it. */
interface Import {
  specifier: string;
  typeOnly: boolean;
}

/** The modules a source text imports, each with whether only types cross (specifiers as written). */
export function importsOf(text: string): Import[] {
  // JSDoc is left unparsed: no import is in a comment.
  const source = ts.createSourceFile('x.ts', text, { languageVersion: ts.ScriptTarget.Latest, jsDocParsingMode: ts.JSDocParsingMode.ParseNone }, false, ts.ScriptKind.TS);
  const found: Import[] = [];
  const add = (specifier: ts.Expression | undefined, typeOnly: boolean) => {
    if (specifier && ts.isStringLiteralLike(specifier)) found.push({ specifier: specifier.text, typeOnly });
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node)) add(node.moduleSpecifier, importIsTypeOnly(node));
    else if (ts.isExportDeclaration(node)) add(node.moduleSpecifier, exportIsTypeOnly(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require'))) {
      // `require('./x')` and `import('./x')` load the module as surely as an import does.
      add(node.arguments[0], false);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function edgesOf(file: string, imports: Import[]): Edge[] {
  const from = moduleName(file);
  return imports.flatMap(({ specifier, typeOnly }) => {
    const to = resolve(file, specifier);
    return to === undefined ? [] : [{ from, to, typeOnly }];
  });
}

/**
 * What each source text imports, by the digest of the text, kept from the last reading: a text is
 * parsed again only when it changed, or when this reader or the parser did (parsing the whole of src/
 * was most of this test's time). Only written, whole, when something was parsed.
 */
const KNOWN = path.resolve(__dirname, '../../node_modules/.cache/split-sandbox-import-graph.json');
const digest = (text: string) => createHash('sha256').update(text).digest('hex');

function knownImports(reader: string): Record<string, Import[]> {
  try {
    const kept = JSON.parse(fs.readFileSync(KNOWN, 'utf8')) as { reader?: string; texts?: Record<string, Import[]> };
    return kept.reader === reader && kept.texts ? kept.texts : {};
  } catch {
    return {};
  }
}

/** Every import between modules of src/. */
export function importGraph(): Edge[] {
  const reader = digest(fs.readFileSync(__filename, 'utf8') + ts.version);
  const known = knownImports(reader);
  const texts: Record<string, Import[]> = {};
  let parsed = 0;
  const edges = sourceFiles(SRC).flatMap((file) => {
    const text = fs.readFileSync(file, 'utf8');
    const key = digest(text);
    let imports = known[key];
    if (!imports) (imports = importsOf(text)), parsed++;
    texts[key] = imports;
    return edgesOf(file, imports);
  });
  if (parsed > 0) {
    fs.mkdirSync(path.dirname(KNOWN), { recursive: true });
    fs.writeFileSync(`${KNOWN}.${process.pid}`, JSON.stringify({ reader, texts }));
    fs.renameSync(`${KNOWN}.${process.pid}`, KNOWN);
  }
  return edges;
}

/**
 * The circles of value imports: each strongly connected group of modules (two or more, or one that
 * imports itself), its members sorted, the groups sorted (Tarjan's algorithm).
 */
export function valueCircles(edges: readonly Edge[]): string[][] {
  const next = new Map<string, string[]>();
  for (const e of edges) {
    if (e.typeOnly) continue;
    (next.get(e.from) ?? next.set(e.from, []).get(e.from)!).push(e.to);
    if (!next.has(e.to)) next.set(e.to, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const groups: string[][] = [];
  let counter = 0;
  const connect = (v: string): void => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v)!) {
      if (!index.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const group: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        group.push(w);
      } while (w !== v);
      if (group.length > 1 || next.get(v)!.includes(v)) groups.push(group.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) connect(v);
  return groups.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/**
 * The floors of the house, top to bottom: a module may import values from its own floor and those
 * below; from a floor above, types only. Top-level files sit with the folder they serve.
 */
export const FLOORS: readonly (readonly string[])[] = [
  ['cli', 'testcontainers', 'index'],
  ['drift'],
  ['main', 'config'],
  ['openapi'],
  ['http'],
  ['requests'],
  ['marketplaces'],
  ['snapshots', 'retention'],
  ['scheduler'],
  ['stories', 'notifications'],
  ['services'],
  ['faults'],
  ['scenarios', 'fixtures'],
  ['routes', 'schemas'],
  ['errors'],
  ['wire'],
  ['store'],
  ['domain', 'ids', 'log', 'package-root', 'file-stamp'],
];

/** The floor of a module (0 the top), by its folder or, at the top of src/, its name. */
export function floorOf(module: string): number {
  const room = module.split('/')[0]!;
  const floor = FLOORS.findIndex((rooms) => rooms.includes(room));
  if (floor < 0) throw new Error(`src/${module}: ${room} is on no floor of FLOORS`);
  return floor;
}

/** The value imports that reach up a floor, as `from → to`. */
export function upwardImports(edges: readonly Edge[]): string[] {
  return edges.filter((e) => !e.typeOnly && floorOf(e.to) < floorOf(e.from)).map((e) => `${e.from} → ${e.to}`).sort();
}
