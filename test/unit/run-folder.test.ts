// The run's folder (test/setup/run-folder.ts) holds every temporary file of the run, in memory where
// the system has a memory file system.
import { statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { RUN_FOLDER, runFolderBase } from '../setup/run-folder';

describe("the run's folder", () => {
  it('is where the test files and the processes they start make their temporary files', () => {
    expect(process.env[RUN_FOLDER]).toBeTruthy();
    expect(tmpdir().startsWith(`${process.env[RUN_FOLDER]}/`)).toBe(true);
  });

  it('goes in the TMPDIR a user set, else in a memory file system, else in the system’s temporary folder', () => {
    expect(runFolderBase({ TMPDIR: '/srv/scratch' }, '/dev/shm')).toBe('/srv/scratch');
    expect(runFolderBase({}, '/no/such/folder')).toBe(tmpdir());
    // The repository is on a disk (a file system of another type).
    expect(runFolderBase({}, __dirname)).toBe(tmpdir());
  });

  const shmIsMemory = (() => {
    try {
      return statfsSync('/dev/shm').type === 0x01021994;
    } catch {
      return false;
    }
  })();
  (shmIsMemory ? it : it.skip)('is in /dev/shm on Linux, a memory file system', () => {
    expect(runFolderBase({}, '/dev/shm')).toBe('/dev/shm');
    expect(process.env[RUN_FOLDER]!.startsWith('/dev/shm/')).toBe(true);
  });
});
