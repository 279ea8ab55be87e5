// The README's code blocks, as a reader copies them: the tests run them as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The ```lang blocks under a `## heading` (or `### heading`) of the README, up to the next heading of any level. */
export function blocks(heading: string, lang: string): string[] {
  const m = new RegExp(`\\n(#{2,4}) ${heading.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\n`).exec(README);
  if (!m) throw new Error(`README has no section "${heading}"`);
  // Headings outside code blocks only: a bash comment line starts with one '#', a heading with two or more.
  const section = README.slice(m.index + m[0].length).split(/\n#{2,4} /)[0]!;
  const found = [...section.matchAll(new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```', 'g'))].map((b) => b[1]!);
  if (found.length === 0) throw new Error(`README section "${heading}" has no ${lang} block`);
  return found;
}

/** The first ```lang block under the heading. */
export function block(heading: string, lang: string): string {
  return blocks(heading, lang)[0]!;
}
