// A folder of one jest run, for what its test files share (the browser tests' one Chromium) and for
// every temporary file of the run: made by globalSetup, named to the test files (and jest's workers)
// through the environment, and removed by globalTeardown after it stops every process started for the run.
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variables naming the run's folder and jest's own process (the run's processes end with it). */
export const RUN_FOLDER = 'SPLIT_SANDBOX_TEST_RUN';
export const RUN_PID = 'SPLIT_SANDBOX_TEST_RUN_PID';

/** statfs's type of a memory file system (Linux's tmpfs). */
const TMPFS = 0x01021994;

/**
 * Where the run's folder goes: the TMPDIR a user set; else a memory file system where the system has
 * one (Linux's /dev/shm), as the tests' files live no longer than the run and the durable databases'
 * syncs to a disk are not what any test checks (they kept a run's test files waiting some 20 s on a
 * disk); else the system's temporary folder.
 */
export function runFolderBase(env: NodeJS.ProcessEnv = process.env, shm = '/dev/shm'): string {
  if (env.TMPDIR) return env.TMPDIR;
  try {
    accessSync(shm, constants.W_OK);
    if (statfsSync(shm).type === TMPFS) return shm;
  } catch {
    /* none */
  }
  return tmpdir();
}

export function openRunFolder(): void {
  const folder = mkdtempSync(join(runFolderBase(), 'split-sandbox-run-'));
  process.env[RUN_FOLDER] = folder;
  process.env[RUN_PID] = String(process.pid);
  // The temporary files of the test files, and of the processes they start, are the run's too
  // (os.tmpdir() reads TMPDIR): removed with it, whatever a test left.
  const tmp = join(folder, 'tmp');
  mkdirSync(tmp);
  process.env.TMPDIR = tmp;
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** globalTeardown: each process that left its pid in the folder (<name>.pid) is stopped, and waited for. */
export default async function closeRunFolder(): Promise<void> {
  const folder = process.env[RUN_FOLDER];
  if (!folder || !existsSync(folder)) return;
  const pids = readdirSync(folder)
    .filter((f) => f.endsWith('.pid'))
    .map((f) => Number(readFileSync(join(folder, f), 'utf8')))
    .filter((pid) => pid > 0 && alive(pid));
  for (const pid of pids) process.kill(pid, 'SIGTERM');
  // Waited for, so that jest returns with nothing of the run left running.
  for (const deadline = Date.now() + 10_000; pids.some(alive) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 25));
  for (const pid of pids.filter(alive)) process.kill(pid, 'SIGKILL');
  rmSync(folder, { recursive: true, force: true });
}
