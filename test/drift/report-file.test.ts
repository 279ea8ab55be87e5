// The report file: written at once, rewritten after changes (whole, by rename), read back checked.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DriftReport, type CallRef, type Difference } from '../../src/drift/differences';
import { ReportFileError, followReport, readReportFile, writeReportFile, writeStoryFiles } from '../../src/drift/report-file';
import { PaymentRecorder } from '../../src/drift/stories';

const call: CallRef = { Method: 'POST', Path: '/v1/payments', JournalID: 4, At: '20260115100000' };
const typeDiff = { Kind: 'type' as const, Route: 'POST /v1/payments', Field: 'Payment.Amount', Upstream: '100', Shadow: 100, Call: call };
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('the report file', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'drift-report-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written at once, then after the changes of each turn, and read back as written', async () => {
    const file = join(dir, 'drift.json');
    const report = new DriftReport();
    const writer = followReport(report, file);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ Differences: [] });
    report.add([typeDiff]);
    report.add([typeDiff, { ...typeDiff, Kind: 'missing field', Field: 'Payment.Fraud', Upstream: null, Shadow: undefined }]);
    await nextTurn();
    const read = readReportFile(file);
    expect(read.map((d) => [d.Kind, d.Count])).toEqual([
      ['type', 2],
      ['missing field', 1],
    ]);
    // An absent side is a key left out.
    expect('Shadow' in read[1]!).toBe(false);
    writer.close();
    expect(readdirSync(dir)).toEqual(['drift.json']);
  });

  it('writes what is pending on flush, without waiting for the turn', () => {
    const file = join(dir, 'drift.json');
    const report = new DriftReport();
    const writer = followReport(report, file);
    report.add([typeDiff]);
    writer.flush();
    expect(readReportFile(file)).toHaveLength(1);
    writer.close();
  });

  it('replaces the old file whole', () => {
    const file = join(dir, 'drift.json');
    writeFileSync(file, 'x'.repeat(10_000));
    writeReportFile(file, [{ ...typeDiff, Count: 1 } as Difference]);
    expect(readReportFile(file)).toHaveLength(1);
  });

  it('refuses a file that is missing, not JSON, or no report, saying which', () => {
    const bad = (text: string) => {
      const file = join(dir, `f${Math.random()}.json`);
      writeFileSync(file, text);
      return () => readReportFile(file);
    };
    expect(() => readReportFile(join(dir, 'none.json'))).toThrow(/cannot read .*none\.json: no such file/);
    expect(bad('{')).toThrow(/is not JSON/);
    expect(bad('[]')).toThrow(/is not a drift report/);
    expect(bad(JSON.stringify({ Differences: [{ ...typeDiff, Kind: 'colour', Count: 1 }] }))).toThrow(/Differences\[0\] has an unknown Kind "colour"/);
    expect(bad('{')).toThrow(ReportFileError);
  });

  it('writes the story of each recorded payment that differed, and of no other', () => {
    const rec = new PaymentRecorder();
    for (const id of ['11', '12']) {
      rec.created(id, { method: 'POST', path: '/v1/payments', body: { Payment: { Amount: '100', Note: '4111111111111111' } }, at: 0, status: 201, answer: { Payment: { ID: Number(id), Splits: [] } } });
    }
    const diffs: Difference[] = [{ ...typeDiff, Count: 1, Call: { ...call, Path: '/v1/payments/12' } }];
    expect(writeStoryFiles(dir, rec, diffs)).toEqual([join(dir, 'drift-12.json')]);
    expect(readdirSync(dir)).toEqual(['drift-12.json']);
    const story = readFileSync(join(dir, 'drift-12.json'), 'utf8');
    expect(JSON.parse(story)).toMatchObject({ Name: 'drift-12', Request: { Payment: { Amount: '100', Note: 'VISA-1111' } }, Story: { PaymentID: 12 } });
    expect(story).not.toContain('4111111111111111');
  });
});
