// `start --ready-file <path>`: a file that appears, whole, once both listeners are up, so a script can
// wait for it and read the addresses; removed again when the sandbox stops.
import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

export interface Readiness {
  /** The addresses clients use, as GET /_sandbox/health shows them (the public ones when set). */
  BaseURL: string;
  CardBaseURL: string;
  /** Where the listeners are bound: the same, unless --public-url names another address. */
  ListeningBaseURL: string;
  ListeningCardBaseURL: string;
  PID: number;
}

/** Written beside its final name and renamed: a reader never sees half a file. */
export function writeReadyFile(path: string, ready: Readiness): void {
  const tmp = `${path}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify(ready) + '\n');
    renameSync(tmp, path);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** Removes the file if it is still this process's (another sandbox may have written it since). */
export function removeReadyFile(path: string): void {
  try {
    const ready = JSON.parse(readFileSync(path, 'utf8')) as Partial<Readiness>;
    if (ready.PID === process.pid) rmSync(path, { force: true });
  } catch {
    // Gone already, or not ours to judge.
  }
}
