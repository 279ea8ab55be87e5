// The README's code blocks, as a reader copies them: the tests run them as written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const README = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');

/** The first ```lang block under the `## heading` of the README. */
export function block(heading: string, lang: string): string {
  const at = README.indexOf(`\n## ${heading}\n`);
  if (at < 0) throw new Error(`README has no section "${heading}"`);
  const section = README.slice(at + 1).split(/\n## /)[0]!;
  const m = new RegExp('```' + lang + '\\n([\\s\\S]*?)\\n```').exec(section);
  if (!m) throw new Error(`README section "${heading}" has no ${lang} block`);
  return m[1]!;
}
