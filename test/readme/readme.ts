// The README's and its docs/ pages' code blocks, as a reader copies them: the tests run them as written.
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** README.md, then every docs/*.md page, by path from the project's root. */
export const DOCS: Readonly<Record<string, string>> = Object.fromEntries(
  ['README.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)].map((f) => [f, readFileSync(join(ROOT, f), 'utf8')]),
);

export const README = DOCS['README.md']!;

/** A document of DOCS, or a clear error naming it. */
export function doc(file: string): string {
  const text = DOCS[file];
  if (text === undefined) throw new Error(`no document ${file}`);
  return text;
}

/** The lines of a document outside its code blocks, with their index: the headings a reader sees. */
function headings(lines: string[]): { at: number; level: number; text: string }[] {
  const found: { at: number; level: number; text: string }[] = [];
  let inCode = false;
  lines.forEach((line, at) => {
    if (line.startsWith('```')) inCode = !inCode;
    const m = inCode ? null : /^(#{1,6}) (.+)$/.exec(line);
    if (m) found.push({ at, level: m[1]!.length, text: m[2]! });
  });
  return found;
}

/** The text under `# heading` (any level) of a document, up to the next heading of any level. */
export function section(file: string, heading: string): string {
  const lines = doc(file).split('\n');
  const all = headings(lines);
  const hits = all.filter((h) => h.text === heading);
  if (hits.length !== 1) throw new Error(`${file} has ${hits.length} sections "${heading}" (one expected)`);
  const next = all.find((h) => h.at > hits[0]!.at);
  return lines.slice(hits[0]!.at + 1, next ? next.at : lines.length).join('\n');
}

/** The ```lang blocks under a heading of a document (README.md or docs/<page>.md). */
export function blocks(file: string, heading: string, lang: string): string[] {
  const found = [...section(file, heading).matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map((b) => b[1]!);
  if (found.length === 0) throw new Error(`${file} section "${heading}" has no ${lang} block`);
  return found;
}

/** The first ```lang block under the heading. */
export function block(file: string, heading: string, lang: string): string {
  return blocks(file, heading, lang)[0]!;
}

/** A heading as GitHub makes its anchor: lower case, punctuation dropped, spaces to hyphens. */
export const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

export const outsideCode = (text: string) => text.replace(/```[\s\S]*?```/g, '');
export const anchorsOf = (text: string) => new Set([...outsideCode(text).matchAll(/^#{1,6} (.+)$/gm)].map((m) => slug(m[1]!)));

/** Every link of every document: the document, the target as written, and the file it names (from the root). */
export const LINKS = Object.entries(DOCS).flatMap(([file, text]) =>
  [...outsideCode(text).matchAll(/\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^https?:/.test(target))
    .map((target) => {
      const [path, anchor] = target.split('#') as [string, string | undefined];
      return { file, target, path: path === '' ? file : normalize(join(dirname(file), path)), anchor };
    }),
);
