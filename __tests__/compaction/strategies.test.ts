import type { MessageParam, ToolResultBlockParam } from '@anthropic-ai/sdk/resources/messages';
import { compactedHistory, selectTail } from '../../src/compaction/rebuild.js';
import { spillLargeResults } from '../../src/compaction/spill.js';
import {
  InvalidSummaryError,
  sectionsIn,
  summaryFromReply,
  summaryInstruction,
  withSummaryInstruction
} from '../../src/compaction/summary.js';
import { TokenMeter } from '../../src/compaction/token-meter.js';
import { emptyWorkLedger, recordWork, renderWorkLedger } from '../../src/compaction/work-ledger.js';
import { autoCompactThreshold, compactionSettings, defaultThreshold } from '../../src/compaction/settings.js';
import { call, calls, codeText, result, results, user } from '../support/history-builders.js';

describe('spill', () => {
  it('moves a result over the limit to a file and leaves head, tail and path; older messages untouched', () => {
    const huge = `HEAD${codeText(120_000)}TAIL`;
    const history: MessageParam[] = [
      user('Task'),
      call('old', 'bash', { command: 'cat big' }),
      results(result('old', huge)),
      call('new', 'read_file', { path: 'big.json' }),
      results(result('new', huge))
    ];
    const written: Array<[string, number]> = [];
    const { history: next, spilled } = spillLargeResults(
      history,
      3,
      { maxResultChars: 50_000, previewChars: 2_000 },
      (id, text) => {
        written.push([id, text.length]);
        return `.transcripts/run/tool-results/${id}.txt`;
      }
    );
    expect(written).toEqual([['new', huge.length]]);
    expect(spilled).toEqual([
      { toolUseId: 'new', path: '.transcripts/run/tool-results/new.txt', chars: huge.length, messageIndex: 4 }
    ]);
    expect(next[2]).toBe(history[2]);
    const preview = (next[4]!.content as ToolResultBlockParam[])[0]!.content as string;
    expect(preview.startsWith('HEAD')).toBe(true);
    expect(preview.endsWith('TAIL')).toBe(true);
    expect(preview).toContain('.transcripts/run/tool-results/new.txt');
    expect(preview).toContain('read_file');
    expect(preview.length).toBeLessThan(2_500);
  });

  it('returns the same history when nothing is too big', () => {
    const history = [user('Task'), call('a', 'bash', { command: 'ls' }), results(result('a', 'x'))];
    expect(
      spillLargeResults(history, 0, { maxResultChars: 50_000, previewChars: 2_000 }, () => 'p').history
    ).toBe(history);
  });
});

describe('work ledger', () => {
  it('records failed commands with exit codes, the latest test run, writes and reads, without the model', () => {
    const ledger = emptyWorkLedger();
    const history: MessageParam[] = [
      user('Task'),
      calls(['a', 'bash', { command: 'npm test' }], ['b', 'read_file', { path: 'src/x.ts' }]),
      results(
        result('a', 'exit code: 1\n--- stdout ---\n# pass 5\n# fail 1\n--- stderr ---\n', true),
        result('b', '1\tx')
      ),
      call('c', 'edit_file', { path: 'src/x.ts', old_string: 'a', new_string: 'b' }),
      results(result('c', 'Edited src/x.ts at line 1.')),
      calls(['d', 'bash', { command: 'sleep 999' }], ['e', 'bash', { command: 'npm test' }]),
      results(
        result('d', 'timed out (killed)\n', true),
        result('e', 'exit code: 0\n--- stdout ---\n# pass 6\n# fail 0\n')
      )
    ];
    recordWork(ledger, history, 7);
    // A failure keeps the first lines of its output: where it failed is what a later step needs.
    expect(ledger.failedCommands).toEqual([
      { command: 'npm test', exit: '1', turn: 7, head: '# pass 5\n# fail 1' },
      { command: 'sleep 999', exit: 'timeout', turn: 7, head: 'timed out (killed)' }
    ]);
    expect(renderWorkLedger(ledger, undefined)).toContain('`npm test` → exit 1\n    # pass 5\n    # fail 1');
    expect(ledger.latestTest).toMatchObject({ command: 'npm test', exit: '0', tail: '# pass 6\n# fail 0' });
    expect([...ledger.filesWritten]).toEqual(['src/x.ts']);
    expect(ledger.recentReads).toEqual(['src/x.ts']);
    const text = renderWorkLedger(ledger, [' M src/x.ts']);
    expect(text).toContain('- M src/x.ts');
    expect(text).toContain('`sleep 999` → exit timeout');
    expect(text).toContain('Latest test run (turn 7): `npm test` → exit 0');
    expect(renderWorkLedger(ledger, undefined)).toContain('Files changed (by the tools):\n- src/x.ts');
  });
});

describe('summary', () => {
  const reply = (text: string, stopReason: 'end_turn' | 'max_tokens' = 'end_turn') => ({
    id: 'm',
    content: [{ type: 'text' as const, text }],
    stopReason,
    usage: { input: 1, cacheWrite: 0, cacheRead: 0, output: 1 }
  });
  const good =
    '## Task and intent\nx\n## Decisions\ny\n## Files and code\nz\n## Current state\nw\n## Next step\nv';

  it('asks for text only, with every section, and the focus when given', () => {
    const instruction = summaryInstruction('the API design');
    for (const section of [
      '## Task and intent',
      '## Errors and fixes',
      '## Pending work',
      '## Next step',
      '## Focus'
    ]) {
      expect(instruction).toContain(section);
    }
    expect(instruction).toContain('do not call tools');
    expect(instruction).toContain('the API design');
    expect(summaryInstruction(undefined)).not.toContain('Focus');
  });

  it('appends the instruction to the last user message, after its tool results, without touching the history', () => {
    const history = [user('Task'), call('a', 'bash', { command: 'ls' }), results(result('a', 'x'))];
    const before = structuredClone(history);
    const messages = withSummaryInstruction(history, 'SUMMARIZE');
    expect(history).toEqual(before);
    expect(messages.slice(0, 2)).toEqual(history.slice(0, 2));
    expect(messages[2]!.content).toEqual([result('a', 'x'), { type: 'text', text: 'SUMMARIZE' }]);
    expect(withSummaryInstruction([user('T'), { role: 'assistant', content: 'hm' }], 'S').at(-1)).toEqual(
      user('S')
    );
  });

  const estimate = (chars: number) => Math.ceil(chars / 4);
  /** Summaries as real models write them: none of them repeats our seven headings. */
  const STYLES: Record<string, string> = {
    prose:
      'We are refactoring src/parser.ts so that tokenize() no longer allocates per character. The user ' +
      'asked to keep the public API and to use 2-space indentation. So far the lexer is split out into ' +
      'src/lexer.ts and `npm test` passes except test/parser.test.ts:41 (expected 3 tokens, got 4). Next, ' +
      'fix the trailing-whitespace token and run the tests again.',
    bullets:
      '- Goal: faster tokenize() in src/parser.ts, public API unchanged (user)\n' +
      '- Done: lexer moved to src/lexer.ts; benchmarks 2.1x faster\n' +
      '- Failing: test/parser.test.ts:41 expected 3 tokens, got 4\n' +
      '- Next: handle trailing whitespace, rerun npm test',
    'other headings':
      '### Context\nParser refactor, keep API.\n### Progress\nLexer split out (src/lexer.ts).\n' +
      '### Open issues\nOne failing test: parser.test.ts:41.\n### Plan\nFix whitespace token, rerun tests.',
    'another language':
      "Objectif : accélérer tokenize() dans src/parser.ts sans changer l'API publique. Le lexer est " +
      'maintenant dans src/lexer.ts. Un test échoue encore (test/parser.test.ts:41 : 3 jetons attendus, 4 ' +
      'obtenus). Étape suivante : corriger le jeton des espaces finaux, puis relancer npm test.',
    'very short': 'Lexer split out; one test fails (parser.test.ts:41). Next: fix whitespace token.'
  };

  it.each(Object.keys(STYLES))('keeps a %s summary as the model wrote it', (style) => {
    const accepted = summaryFromReply(reply(STYLES[style]!), 10_000, estimate);
    expect(accepted.text).toBe(STYLES[style]);
  });

  it('maps the requested sections a summary has, however it words them', () => {
    expect(summaryFromReply(reply(good), 10_000, estimate).sections).toEqual([
      'Task and intent',
      'Decisions',
      'Files and code',
      'Current state',
      'Next step'
    ]);
    expect(sectionsIn('**Next step:** run the tests\nErrors and fixes: none')).toEqual([
      'Errors and fixes',
      'Next step'
    ]);
    expect(sectionsIn(STYLES.prose!)).toEqual([]);
  });

  it('refuses only what is not a summary, and says why', () => {
    expect(summaryFromReply(reply(good, 'max_tokens'), 10_000, estimate).text).toContain(
      '[summary cut at its length limit]'
    );
    expect(() => summaryFromReply(reply('  '), 10_000, estimate)).toThrow(/had no text/);
    const toolOnly = {
      ...reply(''),
      content: [{ type: 'tool_use' as const, id: 't', name: 'bash', input: {} }]
    };
    expect(() => summaryFromReply(toolOnly, 10_000, estimate)).toThrow(
      /called 1 tool\(s\) and wrote no text/
    );
    const mostlyCalls = {
      ...reply('Let me look.'),
      content: [
        { type: 'text' as const, text: 'Let me look.' },
        { type: 'tool_use' as const, id: 't', name: 'read_file', input: { path: 'src/parser.ts' } }
      ]
    };
    expect(() => summaryFromReply(mostlyCalls, 10_000, estimate)).toThrow(InvalidSummaryError);
    expect(() => summaryFromReply(mostlyCalls, 10_000, estimate)).toThrow(/mostly tool calls/);
    expect(() => summaryFromReply(reply(STYLES.prose!), 50, estimate)).toThrow(
      /not shorter than the context it replaces \(~50 tokens\)/
    );
  });
});

describe('rebuild', () => {
  const tokens = (message: MessageParam) => Math.ceil(JSON.stringify(message.content).length / 4);

  it('cuts the tail at an assistant message so every kept tool_result keeps its tool_use', () => {
    const history: MessageParam[] = [
      user('Task'),
      call('a', 'bash', { command: 'one' }),
      results(result('a', codeText(4000))),
      call('b', 'bash', { command: 'two' }),
      results(result('b', codeText(400)))
    ];
    const budget = tokens(history[4]!) + tokens(history[3]!) + 10;
    expect(selectTail(history, budget, tokens)).toEqual(history.slice(3));
    // A budget that would start the tail at the results message moves it to the next assistant message.
    expect(selectTail(history, tokens(history[4]!) + 1, tokens)).toEqual([]);
    expect(selectTail(history, 1_000_000, tokens)).toEqual(history.slice(1));
  });

  it('puts the task first, verbatim, then the summary, the ledger and the files; the tail follows', () => {
    const tail = [call('b', 'bash', { command: 'two' }), results(result('b', 'ok'))];
    const next = compactedHistory({
      task: 'Fix the bug.\n\nDetails...',
      header: '<conversation-summary>S</conversation-summary>',
      ledger: '<work-ledger>L</work-ledger>',
      files: [{ path: 'src/a.ts', text: '     1\tx' }],
      tail
    });
    expect(next[0]!.role).toBe('user');
    expect((next[0]!.content as Array<{ text: string }>).map((b) => b.text)).toEqual([
      'Fix the bug.\n\nDetails...',
      '<conversation-summary>S</conversation-summary>',
      '<work-ledger>L</work-ledger>',
      '<recent-file path="src/a.ts" note="re-read from disk after the compaction">\n     1\tx\n</recent-file>'
    ]);
    expect(next.slice(1)).toEqual(tail);
    const alone = compactedHistory({ task: 'T', header: 'H', ledger: 'L', files: [], tail: [] });
    expect(alone).toHaveLength(1);
    expect(JSON.stringify(alone)).toContain('Continue the task');
  });
});

describe('token meter', () => {
  it('counts measured tokens exactly, estimates only new messages, and learns the ratio of what is added', () => {
    const meter = new TokenMeter(1000);
    const history: MessageParam[] = [user(codeText(30_000))];
    const firstChars = 1000 + JSON.stringify(history[0]!.content).length + 20;
    meter.recordSent(history, 0);
    // The API measured 9,000 prompt tokens and 100 output tokens: the whole prompt seeds the ratio.
    meter.observe({ input: 1000, cacheWrite: 8000, cacheRead: 0, output: 100 });
    const seeded = 0.4 * 2.5 + 0.6 * (firstChars / 9000);
    expect(meter.ratio).toBeCloseTo(seeded, 9);

    history.push({ role: 'assistant', content: [{ type: 'text', text: 'ok' }] }, user(codeText(3_400)));
    const added = (message: MessageParam) => JSON.stringify(message.content).length + 20;
    // 9000 measured + 100 output + the new user message estimated with the ratio and the 10% margin.
    expect(meter.contextTokens(history)).toBe(9000 + 100 + Math.ceil((added(history[2]!) / seeded) * 1.1));

    // The next measurement: the growth (1,500 tokens for the two new messages) teaches the ratio.
    meter.recordSent(history, 1);
    meter.observe({ input: 500, cacheWrite: 1000, cacheRead: 9000, output: 50 });
    const growthRatio = (added(history[1]!) + added(history[2]!)) / 1500;
    expect(meter.ratio).toBeCloseTo(0.4 * seeded + 0.6 * growthRatio, 9);
  });

  it('estimates everything again once a sent message changed', () => {
    const meter = new TokenMeter(0);
    const history: MessageParam[] = [user(codeText(4_000))];
    meter.recordSent(history, 0);
    meter.observe({ input: 1000, cacheWrite: 0, cacheRead: 0, output: 0 });
    meter.recordSent([user('short')], 0);
    expect(meter.contextTokens([user('short')])).toBe(meter.estimateRequest([user('short')]));
  });
});

describe('settings', () => {
  it('derives the threshold from the window and the output reserve', () => {
    expect(autoCompactThreshold(200_000, 64_000)).toBe(167_000);
    expect(autoCompactThreshold(200_000, 16_384)).toBe(170_616);
    expect(autoCompactThreshold(40_000, 16_384)).toBe(20_000);
    expect(
      compactionSettings({ contextWindow: 200_000, maxOutputTokens: 64_000, thresholdTokens: 90_000 })
        .thresholdTokens
    ).toBe(90_000);
  });

  it('derives the default threshold from the window and the price of cache reads (the rule the bench chose)', () => {
    // r = 0.1 (Haiku 4.5, Sonnet 4.x): 15k; r = 0.05 (Sonnet 5.5, Opus 5.5): 20k; r = 0.025 (Fable 5.1): 30k.
    expect(defaultThreshold(200_000, 16_384, 0.1)).toBe(15_000);
    expect(defaultThreshold(1_000_000, 16_384, 0.05)).toBe(20_000);
    expect(defaultThreshold(1_000_000, 16_384, 0.025)).toBe(30_000);
    // At least 6 times the cache minimum: Haiku 4.5 (4,096) gets 25k; a 512 minimum changes nothing.
    expect(defaultThreshold(200_000, 16_384, 0.1, 4_096)).toBe(25_000);
    expect(defaultThreshold(1_000_000, 16_384, 0.05, 512)).toBe(20_000);
    const sonnet = compactionSettings({
      contextWindow: 1_000_000,
      maxOutputTokens: 16_384,
      cacheReadRatio: 0.05
    });
    expect(sonnet.thresholdTokens).toBe(20_000);
    // Micro keeps 2 and clears in batches of 3/10 of the threshold; tail and files get 15% of it.
    expect(sonnet.micro.keepRecent).toBe(2);
    expect(sonnet.micro.clearAtLeast).toBe(6_000);
    expect(sonnet.keepTailTokens).toBe(3_000);
    expect(sonnet.maxRestoredTokens).toBe(3_000);
    // A window whose own formula is lower keeps it.
    const small = compactionSettings({ contextWindow: 20_000, maxOutputTokens: 16_384 });
    expect(small.thresholdTokens).toBe(10_000);
    expect(small.micro.clearAtLeast).toBe(3_000);
    // Inputs still win.
    expect(
      compactionSettings({ contextWindow: 200_000, maxOutputTokens: 16_384, microClearAtLeast: 5_000 }).micro
        .clearAtLeast
    ).toBe(5_000);
  });
});
