import { mkdirSync, readFileSync, existsSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createDefaultTools } from '../../src/tools/index.js';
import { createTempDir, createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';

const tools = createDefaultTools();
let repo: TempRepo;
let outside: string;

beforeEach(() => {
  repo = createTempRepo();
  outside = createTempDir();
});
afterEach(() => repo.remove());

const call = (name: string, input: unknown) =>
  tools.execute({ id: 'toolu_test', name, input }, toolContext(repo.root));

describe('read_file', () => {
  it('returns numbered lines', async () => {
    repo.write('src/app.ts', 'const a = 1;\nconst b = 2;\n');
    const result = await call('read_file', { path: 'src/app.ts' });
    expect(result.isError).toBe(false);
    expect(result.content).toBe('     1\tconst a = 1;\n     2\tconst b = 2;');
  });

  it('reads a window of a large file with offset and limit and says how to read more', async () => {
    repo.write('big.txt', Array.from({ length: 5000 }, (_, i) => `line ${i + 1}`).join('\n'));
    const result = await call('read_file', { path: 'big.txt', offset: 100, limit: 3 });
    expect(result.content.split('\n')).toEqual([
      '   100\tline 100',
      '   101\tline 101',
      '   102\tline 102',
      '[lines 100-102 of 5000; use offset and limit to read more]'
    ]);
  });

  it('reports a missing file as an error the model can act on', async () => {
    const result = await call('read_file', { path: 'nope.ts' });
    expect(result).toMatchObject({ isError: true, content: 'File not found: nope.ts' });
  });

  it('refuses an offset past the end', async () => {
    repo.write('short.txt', 'one\n');
    const result = await call('read_file', { path: 'short.txt', offset: 5 });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('past the end');
  });

  it('refuses paths that escape the repository: .., absolute, and symlinks', async () => {
    writeFileSync(path.join(outside, 'secret.txt'), 'top secret');
    symlinkSync(path.join(outside, 'secret.txt'), path.join(repo.root, 'link.txt'));
    for (const escape of ['../secret.txt', path.join(outside, 'secret.txt'), 'link.txt', 'sub/../../x']) {
      const result = await call('read_file', { path: escape });
      expect(result.isError).toBe(true);
      expect(result.content).toContain('outside the repository');
      expect(result.content).not.toContain('top secret');
    }
  });

  it('rejects input that fails the schema', async () => {
    const result = await call('read_file', { path: 42 });
    expect(result.isError).toBe(true);
    expect(result.content).toMatch(/^Invalid input for read_file: path: /);
  });
});

describe('write_file', () => {
  it('creates the file and its parent folders', async () => {
    const result = await call('write_file', { path: 'a/b/c.txt', content: 'hello\nworld\n' });
    expect(result.isError).toBe(false);
    expect(readFileSync(path.join(repo.root, 'a/b/c.txt'), 'utf8')).toBe('hello\nworld\n');
  });

  it('refuses to write outside the repository, through a dangling symlink, or under .git', async () => {
    symlinkSync(path.join(outside, 'planted.txt'), path.join(repo.root, 'dangling'));
    mkdirSync(path.join(outside, 'dir'));
    symlinkSync(path.join(outside, 'dir'), path.join(repo.root, 'dirlink'));
    const attempts = [
      '../outside.txt',
      path.join(outside, 'abs.txt'),
      'dangling',
      'dirlink/new.txt',
      '.git/hooks/pre-commit'
    ];
    for (const target of attempts) {
      const result = await call('write_file', { path: target, content: 'pwned' });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/Refused/);
    }
    expect(existsSync(path.join(outside, 'planted.txt'))).toBe(false);
    expect(existsSync(path.join(outside, 'dir', 'new.txt'))).toBe(false);
    expect(existsSync(path.join(path.dirname(repo.root), 'outside.txt'))).toBe(false);
    expect(existsSync(path.join(repo.root, '.git/hooks/pre-commit'))).toBe(false);
  });
});

describe('edit_file', () => {
  it('replaces one exact, unique string', async () => {
    repo.write('x.js', 'a = 1;\nb = 2;\n');
    const result = await call('edit_file', { path: 'x.js', old_string: 'b = 2;', new_string: 'b = 3;' });
    expect(result).toMatchObject({ isError: false, content: 'Edited x.js at line 2.' });
    expect(readFileSync(path.join(repo.root, 'x.js'), 'utf8')).toBe('a = 1;\nb = 3;\n');
  });

  it('says so when the string is missing', async () => {
    repo.write('x.js', 'a = 1;\n');
    const result = await call('edit_file', { path: 'x.js', old_string: 'c = 1;', new_string: 'c = 2;' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('old_string was not found in x.js');
  });

  it('says how often a non-unique string occurs and changes nothing', async () => {
    repo.write('x.js', 'x++;\nx++;\nx++;\n');
    const result = await call('edit_file', { path: 'x.js', old_string: 'x++;', new_string: 'x--;' });
    expect(result.isError).toBe(true);
    expect(result.content).toContain('occurs 3 times in x.js');
    expect(readFileSync(path.join(repo.root, 'x.js'), 'utf8')).toBe('x++;\nx++;\nx++;\n');
  });

  it('reports a missing file and refuses identical strings', async () => {
    expect((await call('edit_file', { path: 'gone.js', old_string: 'a', new_string: 'b' })).content).toBe(
      'File not found: gone.js'
    );
    repo.write('x.js', 'a');
    expect((await call('edit_file', { path: 'x.js', old_string: 'a', new_string: 'a' })).content).toContain(
      'identical'
    );
  });
});

describe('glob and grep', () => {
  beforeEach(() => {
    repo.write('.gitignore', 'build/\n');
    repo.write('src/one.ts', 'export const one = 1;\n// TODO: two\n');
    repo.write('src/nested/two.ts', 'export const Two = 2;\n');
    repo.write('build/out.ts', 'export const one = "built";\n');
    repo.write('node_modules/pkg/index.ts', 'export const one = "dep";\n');
    repo.write('README.md', '# readme one\n');
  });

  it('glob lists matching files, sorted, honouring .gitignore and skipping node_modules', async () => {
    const result = await call('glob', { pattern: '**/*.ts' });
    expect(result.content.split('\n')).toEqual(['src/nested/two.ts', 'src/one.ts']);
    const scoped = await call('glob', { pattern: '*.ts', path: 'src/nested' });
    expect(scoped.content).toBe('src/nested/two.ts');
  });

  it('grep finds lines with their numbers, with a file filter and case folding', async () => {
    const result = await call('grep', { pattern: 'one', glob: '**/*.ts' });
    expect(result.content).toBe('src/one.ts:1: export const one = 1;');
    const folded = await call('grep', { pattern: 'two', ignore_case: true });
    expect(folded.content.split('\n')).toEqual([
      'src/nested/two.ts:1: export const Two = 2;',
      'src/one.ts:2: // TODO: two'
    ]);
  });

  it('grep reports an invalid regular expression and a search outside the repository', async () => {
    const bad = await call('grep', { pattern: '(unclosed' });
    expect(bad.isError).toBe(true);
    expect(bad.content).toContain('Invalid regular expression');
    const escape = await call('grep', { pattern: 'x', path: '..' });
    expect(escape.isError).toBe(true);
    expect(escape.content).toContain('outside the repository');
  });
});
