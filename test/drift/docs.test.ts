// docs/drift.md shows the volatile-field table as the comparison applies it, and every kind.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIFFERENCE_KINDS } from '../../src/drift/differences';
import { VOLATILE_FIELDS, volatileTableRows } from '../../src/drift/volatile';

const DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'drift.md'), 'utf8');

describe('docs/drift.md', () => {
  it('lists every volatile field of the table, as compared', () => {
    expect(volatileTableRows()).toHaveLength(VOLATILE_FIELDS.length);
    expect(volatileTableRows().filter((row) => !DOC.includes(`\n${row}\n`))).toEqual([]);
  });

  it('explains every kind of difference', () => {
    expect(DIFFERENCE_KINDS.filter((k) => !DOC.includes(`\n| \`${k}\` |`))).toEqual([]);
  });
});
