import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { fileErrorCode } from '../files/file-problem.js';
import { FanoutInputError } from './fanout-error.js';

/**
 * One run at a time per fan-out folder: two runs (a start and a resume, or two resumes) would each
 * read what is left of the cap and both spend it. The lock is a file made with O_EXCL (never
 * through a link), holding the process id and start time; a run removes it when it ends, however
 * it ends. A killed run leaves it behind, and the error names it for the person to remove.
 */
export function lockFanoutFolder(lockFile: string, folder: string): () => void {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx', 0o600);
  } catch (error) {
    if (fileErrorCode(error) !== 'EEXIST') throw error;
    throw new FanoutInputError(
      `Another compact-agent fanout is using ${folder} (${holder(lockFile)}): two runs of one fan-out ` +
        `would both spend what is left of its cap. Wait for that run to end. If none is running (it was ` +
        `killed), remove the lock file ${lockFile} and run again.`
    );
  }
  try {
    writeSync(fd, JSON.stringify({ pid: process.pid, started: new Date().toISOString() }));
  } finally {
    closeSync(fd);
  }
  return () => rmSync(lockFile, { force: true });
}

/** Who holds the lock, as its file says; whether that process still runs on this machine. */
function holder(lockFile: string): string {
  let pid: unknown;
  let started: unknown;
  try {
    ({ pid, started } = JSON.parse(readFileSync(lockFile, 'utf8')) as { pid?: unknown; started?: unknown });
  } catch {
    return `its lock file ${lockFile} exists`;
  }
  if (typeof pid !== 'number' || !Number.isInteger(pid) || pid <= 0)
    return `its lock file ${lockFile} exists`;
  return `process ${pid}, started ${String(started)}, ${running(pid) ? 'still runs' : 'no longer runs'}`;
}

function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return fileErrorCode(error) === 'EPERM';
  }
}
