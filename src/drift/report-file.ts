// The report file (`--out <file>`): `{"Differences": [...]}`, rewritten whole as the run goes, and read
// back by `drift report`. A reader never sees half a file: each write goes to a temporary file renamed
// over the old one.
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DIFFERENCE_KINDS, type Difference, type DriftReport } from './differences';
import type { PaymentRecorder } from './stories';

/** The file's text: a field's absence on one side is the key left out (JSON has no undefined). */
export function reportText(diffs: readonly Difference[]): string {
  return JSON.stringify({ Differences: diffs }, (_k, v: unknown) => (typeof v === 'bigint' ? v.toString() : v), 2) + '\n';
}

/** Writes the differences to `file` at once: the old file or the new one, never a part. */
export function writeReportFile(file: string, diffs: readonly Difference[]): void {
  writeWhole(file, reportText(diffs));
}

/**
 * Writes the story of each recorded payment that differed into `dir`, as `drift-<upstream ID>.json`
 * (`split-sandbox replay` takes it); the files written, in the order the payments first differed.
 */
export function writeStoryFiles(dir: string, recorder: PaymentRecorder, diffs: readonly Difference[], siteId?: number): string[] {
  return recorder.differing(diffs).flatMap((id) => {
    const story = recorder.storyOf(id, diffs, siteId);
    if (!story) return [];
    const file = join(dir, `drift-${id}.json`);
    writeWhole(file, JSON.stringify(story, null, 2) + '\n');
    return [file];
  });
}

function writeWhole(file: string, text: string): void {
  const temp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temp, text);
    renameSync(temp, file);
  } catch (e) {
    try {
      unlinkSync(temp);
    } catch {
      // It was never made.
    }
    throw e;
  }
}

export interface ReportFileWriter {
  /** Writes now what is pending (the proxy calls it when it stops). */
  flush(): void;
  /** Flushes and stops following the report. */
  close(): void;
}

/**
 * Keeps `file` the report's copy: written at once (an empty run leaves `{"Differences": []}`), then
 * after each change, the changes of one turn of the event loop written together (a count grows on
 * every call that shows a difference again). A failed write is passed to `onError` and tried again
 * at the next change.
 */
export function followReport(report: DriftReport, file: string, onError: (e: Error) => void = () => {}): ReportFileWriter {
  let pending: NodeJS.Immediate | null = null;
  let closed = false;
  const write = () => {
    if (pending) clearImmediate(pending);
    pending = null;
    try {
      writeReportFile(file, report.list());
    } catch (e) {
      onError(e as Error);
    }
  };
  report.on('difference', () => {
    if (!closed && !pending) pending = setImmediate(write);
  });
  write();
  return {
    flush: () => {
      if (pending) write();
    },
    close: () => {
      if (pending) write();
      closed = true;
    },
  };
}

/** A report file that cannot be read as one: the message says why, for a person. */
export class ReportFileError extends Error {}

/** The differences of a report file, checked enough to print and filter them. */
export function readReportFile(file: string): Difference[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ReportFileError(`cannot read ${file}: ${(e as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (e as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (e) {
    throw new ReportFileError(`${file} is not JSON: ${(e as Error).message}`);
  }
  const list = (data as { Differences?: unknown } | null)?.Differences;
  if (data === null || typeof data !== 'object' || !Array.isArray(list)) throw new ReportFileError(`${file} is not a drift report (a JSON object with a Differences array)`);
  list.forEach((d: unknown, i) => {
    const o = d as Partial<Difference> | null;
    const what = `${file}: Differences[${i}]`;
    if (o === null || typeof o !== 'object') throw new ReportFileError(`${what} is not an object`);
    if (!DIFFERENCE_KINDS.includes(o.Kind as never)) throw new ReportFileError(`${what} has an unknown Kind ${JSON.stringify(o.Kind)}`);
    if (typeof o.Route !== 'string') throw new ReportFileError(`${what} has no Route`);
    if (o.Field !== null && typeof o.Field !== 'string') throw new ReportFileError(`${what} has no Field (a string or null)`);
    if (typeof o.Count !== 'number') throw new ReportFileError(`${what} has no Count`);
    if (o.Call === null || typeof o.Call !== 'object') throw new ReportFileError(`${what} has no Call`);
  });
  return list as Difference[];
}
