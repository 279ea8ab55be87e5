// A folder of one jest run, for what its test files share (the browser tests' one Chromium): made by
// globalSetup, named to the test files (and jest's workers) through the environment, and removed by
// globalTeardown after it stops every process started for the run.
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The environment variables naming the run's folder and jest's own process (the run's processes end with it). */
export const RUN_FOLDER = 'SPLIT_SANDBOX_TEST_RUN';
export const RUN_PID = 'SPLIT_SANDBOX_TEST_RUN_PID';

export function openRunFolder(): void {
  process.env[RUN_FOLDER] = mkdtempSync(join(tmpdir(), 'split-sandbox-run-'));
  process.env[RUN_PID] = String(process.pid);
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
