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

/** A ready file's contents, or why it is none (missing, unreadable, or not written by `start`). */
export function readReadyFile(path: string): Readiness | { missing: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { missing: code === 'ENOENT' ? `${path} does not exist yet` : `${path} cannot be read (${(e as Error).message})` };
  }
  try {
    const ready = JSON.parse(text) as Partial<Readiness>;
    const url = typeof ready.ListeningBaseURL === 'string' ? ready.ListeningBaseURL : ready.BaseURL;
    if (typeof url === 'string' && /^https?:\/\//.test(url)) {
      return { ...(ready as Readiness), ListeningBaseURL: url, PID: Number.isSafeInteger(ready.PID) ? ready.PID! : 0 };
    }
  } catch {
    // Said below, as any file that is not a ready file.
  }
  return { missing: `${path} is not a ready file of split-sandbox start (no BaseURL in it)` };
}

/** Whether a process of this PID exists (one of another user's counts: it exists, though we may not signal it). */
export function isRunning(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}
