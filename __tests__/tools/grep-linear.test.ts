/** Attacks on the grep tool's regex engine: a pattern must not be able to stall the run. */
import { createDefaultTools } from '../../src/tools/index.js';
import { findUnsupportedSyntax } from '../../src/tools/linear-regex.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';
import { runIsolated } from './run-isolated.js';

const tools = createDefaultTools();
let repo: TempRepo;

beforeEach(() => {
  repo = createTempRepo();
});
afterEach(() => repo.remove());

const grep = (input: unknown) =>
  tools.execute({ id: 'toolu_grep', name: 'grep', input }, toolContext(repo.root));

describe('grep on a linear-time engine', () => {
  it('answers ^(a+)+$ over a large file of near-matches instead of freezing the event loop', () => {
    // Backtracking engines take ~2^n steps per 'aaa…b' line; V8 would never finish one of these.
    const run = runIsolated(
      (src) => `
        import { mkdtempSync, writeFileSync } from 'node:fs';
        import { tmpdir } from 'node:os';
        import path from 'node:path';
        import { createDefaultTools } from ${src('tools/index.ts')};
        import { Workspace } from ${src('tools/workspace.ts')};
        import { buildToolEnvironment } from ${src('tools/environment.ts')};
        const root = mkdtempSync(path.join(tmpdir(), 'grep-redos-'));
        const lines = [];
        for (let i = 0; i < 400; i++) lines.push(i % 100 === 7 ? 'a'.repeat(3000) : 'a'.repeat(3000) + 'b');
        writeFileSync(path.join(root, 'big.txt'), lines.join('\\n') + '\\n');
        const result = await createDefaultTools().execute(
          { id: 't', name: 'grep', input: { pattern: '^(a+)+$' } },
          { workspace: new Workspace(root), signal: new AbortController().signal,
            env: buildToolEnvironment(process.env), requestCompaction() {} }
        );
        process.stdout.write(JSON.stringify(result));
      `
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const result = JSON.parse(run.stdout) as { content: string; isError: boolean };
    expect(result.isError).toBe(false);
    const matched = result.content.split('\n').map((line) => line.slice(0, line.indexOf(': ')));
    expect(matched).toEqual(['big.txt:8', 'big.txt:108', 'big.txt:208', 'big.txt:308']);
  });

  it('keeps JavaScript syntax working: \\u escapes, named groups, [^], classes and ignore_case', async () => {
    repo.write('a.txt', 'Alpha beta\nid: 42-x\nnothing here\nTab\there\n');
    expect((await grep({ pattern: '\\u0041lpha' })).content).toBe('a.txt:1: Alpha beta');
    expect((await grep({ pattern: '(?<num>\\d+)-[\\w]' })).content).toBe('a.txt:2: id: 42-x');
    expect((await grep({ pattern: 'Tab[^]here' })).content).toBe('a.txt:4: Tab\there');
    expect((await grep({ pattern: 'ALPHA', ignore_case: true })).content).toBe('a.txt:1: Alpha beta');
    expect((await grep({ pattern: 'ALPHA' })).content).toMatch(/^No matches/);
    expect((await grep({ pattern: '^nothing\\s+\\w+$' })).content).toBe('a.txt:3: nothing here');
  });

  it('refuses lookaround and backreferences with advice, instead of matching something else', async () => {
    repo.write('a.txt', 'k<n>\naa\n');
    // re2js alone would turn \k<n> into the literal "k<n>" and report line 1 as a match.
    const named = await grep({ pattern: '(?<n>a)\\k<n>' });
    expect(named.isError).toBe(true);
    expect(named.content).toContain('backreference');
    expect(named.content).toContain('grep -P');
    for (const pattern of ['(a)\\1', 'a(?=a)', 'a(?!b)', '(?<=a)a', '(?<!b)a']) {
      const result = await grep({ pattern });
      expect(result.isError).toBe(true);
      expect(result.content).toMatch(/lookahead or lookbehind|backreference/);
    }
  });

  it('tells lookaround and backreferences apart from look-alikes inside classes and escapes', () => {
    expect(findUnsupportedSyntax('[(?=]x')).toBeUndefined();
    expect(findUnsupportedSyntax('\\(?=x')).toBeUndefined();
    expect(findUnsupportedSyntax('[\\1]')).toBeUndefined();
    expect(findUnsupportedSyntax('\\\\1')).toBeUndefined();
    expect(findUnsupportedSyntax('(?:x)(?<name>y)')).toBeUndefined();
    expect(findUnsupportedSyntax('[\\]](?=x)')).toBe('lookaround');
    expect(findUnsupportedSyntax('(x)\\1')).toBe('backreference');
  });
});
