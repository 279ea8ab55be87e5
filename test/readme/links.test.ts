// The README's links lead somewhere: every #anchor is a heading of it, every relative path a file of
// the project; and the guide comes first, before the reference (a newcomer's first two screens).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { README } from './readme';

/** A heading as GitHub makes its anchor: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

describe("the README's links and order", () => {
  const outsideCode = README.replace(/```[\s\S]*?```/g, '');
  const headings = [...outsideCode.matchAll(/^#{1,4} (.+)$/gm)].map((m) => m[1]!);

  it('every #anchor names a heading', () => {
    const anchors = new Set(headings.map(slug));
    const used = [...outsideCode.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
    expect(used.length).toBeGreaterThan(5);
    expect(used.filter((a) => !anchors.has(a))).toEqual([]);
  });

  it('every relative link is a file of the project', () => {
    const paths = [...outsideCode.matchAll(/\]\((?!#|https?:)([^)\s]+)\)/g)].map((m) => m[1]!);
    expect(paths).toEqual(expect.arrayContaining(['bench/findings.md', 'bench/results.md', 'docs/payer-page.png']));
    expect(paths.filter((p) => !existsSync(join(__dirname, '..', '..', p)))).toEqual([]);
  });

  it('opens with the guide: start it, a payment and its notification, a test, within its first 120 lines', () => {
    const lines = README.split('\n');
    const at = (h: string) => lines.indexOf(h);
    expect(at('## Getting started')).toBeGreaterThan(0);
    expect(at('### Start it')).toBeGreaterThan(at('## Getting started'));
    expect(at('### A payment and its notification')).toBeGreaterThan(at('### Start it'));
    expect(at('### A test')).toBeGreaterThan(at('### A payment and its notification'));
    // The guide ends (the reference's first section begins) within the first two screens or so.
    const reference = lines.findIndex((l, i) => i > at('### A test') && l.startsWith('## '));
    expect(reference).toBeLessThan(120);
    expect(README).toContain('[CI recipes](#ci-recipes)');
  });
});
