/** One phrase for each way a path can fail, whichever command met it and whichever realm made the error. */
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import {
  describeEntryKind,
  describeFileError,
  describeTooBig,
  fileErrorCode,
  isMissingPath
} from '../../src/files/file-problem.js';
import { createTempDir } from '../support/temp-repo.js';

/** An fs error as another realm makes it: a plain object, not an `Error` of this one. */
const foreign = (code: string) => ({ code, message: `${code}: some syscall failed, open '/x'` });

/** The error a real call throws, so the mapping is checked against what Node actually gives. */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error('the call was expected to fail');
}

describe('describeFileError', () => {
  const phrases: ReadonlyArray<[code: string, phrase: string]> = [
    ['ENOENT', 'no such file'],
    ['ENOTDIR', 'a part of its path is a file, not a folder'],
    ['EACCES', 'permission denied on it or on a folder above it'],
    ['EPERM', 'operation not permitted (a file attribute or a security policy forbids it)'],
    ['ELOOP', 'a loop of symbolic links'],
    ['EISDIR', 'it is a folder'],
    ['EFBIG', 'it is too big'],
    ['ENXIO', 'it is a FIFO (named pipe), a socket or a device with nothing at the other end'],
    ['EROFS', 'read-only file system'],
    ['ENOSPC', 'no space left on the disk'],
    ['EDQUOT', 'disk quota exceeded'],
    ['ENAMETOOLONG', 'its name is too long'],
    ['EMFILE', 'too many open files'],
    ['ENFILE', 'too many open files'],
    ['EIO', 'an input/output error (the disk or the network file system failed)']
  ];

  it.each(phrases)('%s reads "%s", whether or not the error is an Error of this realm', (code, phrase) => {
    expect(describeFileError(foreign(code))).toBe(phrase);
    expect(describeFileError(Object.assign(new Error(`${code}: raw`), { code }))).toBe(phrase);
  });

  it('names what was expected when nothing is there', () => {
    expect(describeFileError(foreign('ENOENT'), 'folder')).toBe('no such folder');
    expect(describeFileError(foreign('ENOENT'), 'file')).toBe('no such file');
  });

  it('maps the errors real calls throw, not only hand-made ones', () => {
    const dir = createTempDir('file-problem-');
    const file = path.join(dir, 'notes.txt');
    writeFileSync(file, 'x');
    symlinkSync(path.join(dir, 'loop-b'), path.join(dir, 'loop-a'));
    symlinkSync(path.join(dir, 'loop-a'), path.join(dir, 'loop-b'));
    expect(describeFileError(thrownBy(() => readFileSync(path.join(dir, 'nope'))))).toBe('no such file');
    expect(describeFileError(thrownBy(() => readFileSync(path.join(file, 'inside'))))).toBe(
      'a part of its path is a file, not a folder'
    );
    expect(describeFileError(thrownBy(() => readFileSync(path.join(dir, 'loop-a'))))).toBe(
      'a loop of symbolic links'
    );
    expect(describeFileError(thrownBy(() => readFileSync(dir)))).toBe('it is a folder');
    // /dev/full fails every write with ENOSPC, whoever runs the test (root included).
    expect(describeFileError(thrownBy(() => writeFileSync('/dev/full', 'x')))).toBe(
      'no space left on the disk'
    );
  });

  it('keeps the message of a failure it has no phrase for, and never returns nothing', () => {
    expect(describeFileError(foreign('EXDEV'))).toBe("EXDEV: some syscall failed, open '/x'");
    expect(describeFileError({ code: 'EXDEV' })).toBe('EXDEV');
    expect(describeFileError(new Error('Refusing to write x: it is a symbolic link.'))).toBe(
      'Refusing to write x: it is a symbolic link.'
    );
    expect(describeFileError('a string was thrown')).toBe('a string was thrown');
    expect(describeFileError(undefined)).toBe('undefined');
  });
});

describe('fileErrorCode and isMissingPath', () => {
  it('read the code as a property, and only a string code', () => {
    expect(fileErrorCode(foreign('ENOENT'))).toBe('ENOENT');
    expect(fileErrorCode({ code: 2 })).toBeUndefined();
    expect(fileErrorCode(null)).toBeUndefined();
    expect(fileErrorCode('ENOENT')).toBeUndefined();
  });

  it('call a path missing when it or a folder on its way is not there, and nothing else', () => {
    expect(isMissingPath(foreign('ENOENT'))).toBe(true);
    expect(isMissingPath(foreign('ENOTDIR'))).toBe(true);
    for (const code of ['EACCES', 'EPERM', 'ELOOP', 'EISDIR', 'EIO'])
      expect(isMissingPath(foreign(code))).toBe(false);
    expect(isMissingPath(new Error('no code'))).toBe(false);
  });
});

describe('describeEntryKind', () => {
  let server: Server | undefined;
  afterEach(() => server?.close());

  it('names a FIFO, a device, a socket, a folder and a symbolic link', async () => {
    const dir = createTempDir('entry-kind-');
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const socket = path.join(dir, 'sock');
    const listening = createServer();
    server = listening;
    await new Promise<void>((resolve) => listening.listen(socket, resolve));
    const link = path.join(dir, 'link');
    symlinkSync(dir, link);
    mkdirSync(path.join(dir, 'sub'));
    expect(describeEntryKind(statSync(fifo))).toBe('it is a FIFO (named pipe)');
    expect(describeEntryKind(statSync('/dev/null'))).toBe('it is a device');
    expect(describeEntryKind(statSync(socket))).toBe('it is a socket');
    expect(describeEntryKind(statSync(path.join(dir, 'sub')))).toBe('it is a folder');
    expect(describeEntryKind(lstatSync(link))).toBe('it is a symbolic link');
  });
});

describe('describeTooBig', () => {
  const MiB = 2 ** 20;

  it('gives both sizes in a unit that fits them', () => {
    expect(describeTooBig(600 * MiB, 512 * MiB)).toBe(
      'it is too big (600 MiB; it is read only up to 512 MiB)'
    );
    expect(describeTooBig(300 * 1024, 256 * 1024)).toBe(
      'it is too big (300 KiB; it is read only up to 256 KiB)'
    );
    expect(describeTooBig(900, 512)).toBe('it is too big (900 bytes; it is read only up to 512 bytes)');
  });

  it('never shows a size equal to the limit it is over', () => {
    expect(describeTooBig(512 * MiB + 1, 512 * MiB)).toBe(
      'it is too big (more than 512 MiB; it is read only up to 512 MiB)'
    );
  });
});
