import { symlinkSync } from 'node:fs';
import path from 'node:path';
import { listUnits } from '../../src/fanout/units.js';
import { unitBytes } from '../../src/fanout/unit-bytes.js';
import { FanoutInputError } from '../../src/fanout/fanout-error.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';

let repo: TempRepo;
const env = { PATH: process.env.PATH, HOME: process.env.HOME, GITHUB_TOKEN: 'ghp_secretsecretsecret' };

beforeAll(() => {
  repo = createTempRepo();
  repo.write('src/b.ts', 'oldApi();\n');
  repo.write('src/a.ts', 'oldApi();\n');
  repo.write('src/c.ts', 'newApi();\n');
  repo.write('packages/one/package.json', '{"name":"one"}');
  repo.write('packages/two/package.json', '{"name":"two"}');
  repo.write('packages/notes/README.md', 'no package here');
  repo.write('package.json', '{"workspaces":["packages/*"]}');
  repo.write('.gitignore', 'ignored.ts\n');
  repo.write('ignored.ts', 'oldApi();\n');
  repo.git('add', '-A');
  repo.git('commit', '-qm', 'seed');
});
afterAll(() => repo.remove());

describe('unitBytes', () => {
  it('measures files, folders (their files) and missing units, without following links', async () => {
    repo.write('sized/one.txt', '12345');
    repo.write('sized/deep/two.txt', '123');
    symlinkSync('/etc/passwd', path.join(repo.root, 'link.txt'));
    // A link to a folder inside a folder unit is not walked (it could point at the whole disk).
    symlinkSync('/usr', path.join(repo.root, 'sized/usr'));
    repo.write('odd[name]/x.txt', '1234567');
    const sizes = await unitBytes(repo.root, ['sized/one.txt', 'sized', 'gone.txt', 'link.txt', 'odd[name]']);
    expect(sizes.get('sized/one.txt')).toBe(5);
    expect(sizes.get('sized')).toBe(8);
    expect(sizes.get('gone.txt')).toBe(0);
    expect(sizes.get('link.txt')).toBe('/etc/passwd'.length);
    expect(sizes.get('odd[name]')).toBe(7);
  });
});

describe('listUnits', () => {
  it('lists a command’s output, sorted, deduplicated and normalized', async () => {
    const units = await listUnits(
      { kind: 'command', command: 'git grep -l oldApi -- src; echo ./src/a.ts' },
      { repoDir: repo.root, env }
    );
    expect(units).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it('runs the command without the secrets of the environment', async () => {
    const units = await listUnits(
      { kind: 'command', command: 'echo "${GITHUB_TOKEN:-no-token}.txt"' },
      { repoDir: repo.root, env }
    );
    expect(units).toEqual(['no-token.txt']);
  });

  it('lists globs (ignored files left out) and the workspace packages', async () => {
    expect(await listUnits({ kind: 'globs', patterns: ['**/*.ts'] }, { repoDir: repo.root, env })).toEqual([
      'src/a.ts',
      'src/b.ts',
      'src/c.ts'
    ]);
    expect(await listUnits({ kind: 'packages' }, { repoDir: repo.root, env })).toEqual([
      'packages/one',
      'packages/two'
    ]);
  });

  it('makes an empty list, a failing command and a path outside the repository clear errors', async () => {
    await expect(
      listUnits({ kind: 'command', command: 'true' }, { repoDir: repo.root, env })
    ).rejects.toThrow(/listed no units, so there is nothing to fan out/);
    await expect(
      listUnits({ kind: 'command', command: 'echo oops >&2; exit 3' }, { repoDir: repo.root, env })
    ).rejects.toThrow(
      /`echo oops >&2; exit 3` exited with code 3 \(oops\)\. Run it in the repository yourself/
    );
    await expect(
      listUnits({ kind: 'command', command: 'git grep -l nothingMatchesThis' }, { repoDir: repo.root, env })
    ).rejects.toThrow(/exited with code 1.*`git grep -l` exits 1 when nothing matches/);
    await expect(
      listUnits({ kind: 'command', command: 'echo ../outside.ts' }, { repoDir: repo.root, env })
    ).rejects.toThrow(FanoutInputError);
    await expect(
      listUnits({ kind: 'command', command: 'echo /etc/passwd' }, { repoDir: repo.root, env })
    ).rejects.toThrow(/is an absolute path/);
  });
});

describe('units from CODEOWNERS owners', () => {
  it("lists the tracked files whose owners include one of those asked for, case-blind, as HEAD's CODEOWNERS says", async () => {
    const owned = createTempRepo();
    try {
      owned.write(
        'CODEOWNERS',
        '* @octo-org/default\n/web/ @octo-org/Web\n/web/vendor/\n*.sql @octo-org/web @dba\n'
      );
      owned.write('web/app.ts', '');
      owned.write('web/vendor/lib.js', '');
      owned.write('api/server.ts', '');
      owned.write('db/schema.sql', '');
      owned.git('add', '-A');
      owned.git('commit', '-qm', 'seed');
      // Untracked: not a unit.
      owned.write('web/draft.ts', '');
      expect(
        await listUnits({ kind: 'owners', owners: ['@octo-org/web'] }, { repoDir: owned.root, env })
      ).toEqual(['db/schema.sql', 'web/app.ts']);
      expect(
        await listUnits(
          { kind: 'owners', owners: ['@dba', '@octo-org/DEFAULT'] },
          { repoDir: owned.root, env }
        )
      ).toEqual(['CODEOWNERS', 'api/server.ts', 'db/schema.sql']);
    } finally {
      owned.remove();
    }
  });

  it('is an error naming what to do in a repository without CODEOWNERS', async () => {
    await expect(listUnits({ kind: 'owners', owners: ['@a'] }, { repoDir: repo.root, env })).rejects.toThrow(
      /Listing the files of @a needs a CODEOWNERS file/
    );
  });
});
