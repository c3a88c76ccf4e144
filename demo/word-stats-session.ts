import {
  lastUserText,
  reply,
  text,
  thinking,
  toolResultText,
  toolUse,
  unseenToolExchanges,
  type ParsedRequest,
  type ReplyBlock,
  type Script,
  type ScriptedReply,
  type ToolUseBlockParam
} from '../test-support/fake-anthropic/index.js';

const BUGGY_LINE = "return text.trim().split(' ').length;";
const FIXED_LINE = 'return text.trim().split(/\\s+/).length;';
const COMPARISON_SCRIPT = 'scratch/compare-counts.mjs';
const COMPARISON_OUTPUT = 'scratch/counts.txt';
/** The last test of test/word-count.test.js, after which the model adds its regression test. */
const LAST_TEST_END = "  assert.equal(countLines(''), 0);\n});";
const COMPACT_FOCUS =
  'the root cause in countWords (src/word-count.js), the failing test, and the fix I am about to make';

/**
 * How a summary request shows itself: the instruction the action appends to the last user message
 * (its tag), or the plain wording other designs use. The scripted model reacts to the request, not
 * to any heading it asks for.
 */
const SUMMARY_REQUEST_MARKERS = ['<compaction-request>', 'Summarize this conversation'];

/** What the scripted model has learned so far, from the tool results it was sent. */
interface Knowledge {
  failingTests?: number;
  buggyLineSeen: boolean;
  testFileSeen: boolean;
  mismatchCount?: number;
  spillPath?: string;
  fixApplied: boolean;
  testAdded: boolean;
  /** `# fail N` of the latest `npm test`, after the fix. */
  failingAfterFix?: number;
  passingAfterFix?: number;
  errors: string[];
}

/** What the script did, for the demo to cross-check against the action's compaction log. */
export interface SessionProgress {
  agentTurns: number;
  summaries: { manual: boolean }[];
  compactRequested: boolean;
  spillReadBack: boolean;
  finished: boolean;
}

export interface WordStatsSession extends Script {
  readonly progress: SessionProgress;
}

type Step = (known: Knowledge) => ScriptedReply;

/**
 * The demo's scripted model: a realistic debugging session on examples/word-stats, long enough (with
 * the demo's lowered thresholds) for every compaction layer to fire. Like a real model it decides from
 * what it was sent: it runs the tests, reads the code, writes a comparison script over 1,500
 * generated lines, reads its output whole (a result too big for the context: spilled) and then
 * windows of the spill file, asks for a compaction with a focus once the investigation is done,
 * fixes the bug, adds a regression test and checks that the tests pass. Every reply opens with a
 * thinking block, as Sonnet 5.5's do.
 *
 * Compaction rewrites the history, so the script never counts messages: its own step counter lives
 * here and advances on agent turns only, and it learns from each tool result once, when it first
 * appears. A summary request is answered with a summary in a real model's style and does not advance
 * the step.
 */
export function createWordStatsSession(): WordStatsSession {
  const known: Knowledge = {
    buggyLineSeen: false,
    testFileSeen: false,
    fixApplied: false,
    testAdded: false,
    errors: []
  };
  const progress: SessionProgress = {
    agentTurns: 0,
    summaries: [],
    compactRequested: false,
    spillReadBack: false,
    finished: false
  };
  const seen = new Set<string>();
  let step = 0;

  const observe = (request: ParsedRequest) => {
    for (const { call, result } of unseenToolExchanges(request, seen)) {
      learn(known, call, toolResultText(result), result.is_error === true);
    }
  };

  const steps: Step[] = [
    () =>
      turn(
        'The user says the word count test fails on text with several spaces. Before touching anything I want the layout and the actual failure.',
        'I will look at the layout of the repository and run its tests first.',
        toolUse('glob', { pattern: '**/*.js' }),
        toolUse('bash', { command: 'npm test 2>&1' })
      ),
    (k) => {
      if ((k.failingTests ?? 0) === 0) return giveUp('the tests did not fail as the task says');
      return turn(
        `${k.failingTests} test fails: "counts words separated by runs of whitespace and line breaks". I need the module and the test side by side.`,
        'One test fails: countWords miscounts text with runs of whitespace. Reading the module and its test.',
        toolUse('read_file', { path: 'src/word-count.js' }),
        toolUse('read_file', { path: 'test/word-count.test.js' })
      );
    },
    (k) => {
      if (!k.buggyLineSeen) return giveUp('src/word-count.js does not split as I expected');
      return turn(
        "countWords does text.trim().split(' '): two spaces give an empty string between them, and tabs or newlines are not separators at all. topWords may tokenize differently; the fix should agree with it.",
        "countWords splits on a single space. Checking how topWords tokenizes, and whether anything else splits on ' '.",
        toolUse('read_file', { path: 'src/top-words.js' }),
        toolUse('grep', { pattern: "split\\('", path: 'src' })
      );
    },
    () =>
      turn(
        'Only countWords splits on a literal space. Before changing it I want to know how wrong it is on realistic input: lines mixing single spaces, double spaces, tabs and line breaks.',
        'I will compare countWords with a whitespace-run count on 1,500 generated lines.',
        toolUse('write_file', { path: COMPARISON_SCRIPT, content: comparisonScript() })
      ),
    () =>
      turn(
        'Run it into a file, and count the mismatches.',
        'Running the comparison.',
        toolUse('bash', {
          command: `node ${COMPARISON_SCRIPT} > ${COMPARISON_OUTPUT} && wc -l ${COMPARISON_OUTPUT} && grep -c MISMATCH ${COMPARISON_OUTPUT}`
        })
      ),
    (k) => {
      if (k.mismatchCount === undefined) return giveUp('the comparison script did not run');
      return turn(
        `${k.mismatchCount} of 1,500 lines disagree. I want to see which gaps cause them.`,
        `${k.mismatchCount} lines disagree. Reading the comparison.`,
        toolUse('read_file', { path: COMPARISON_OUTPUT })
      );
    },
    (k) => {
      if (!k.spillPath) return giveUp('the comparison output was not where I expected');
      progress.spillReadBack = true;
      return turn(
        'That was too big to read whole; the action kept it in a file. The head is enough to see the pattern.',
        'The output was saved to a file; reading its first lines.',
        toolUse('read_file', { path: k.spillPath, offset: 1, limit: 60 })
      );
    },
    (k) =>
      turn(
        'Every MISMATCH line has a double space, a tab or a newline; single-space lines are all ok. Checking the end of the file to be sure the pattern holds.',
        'Checking the end of the output as well.',
        toolUse('read_file', { path: k.spillPath ?? COMPARISON_OUTPUT, offset: 1401, limit: 100 })
      ),
    () =>
      turn(
        "The module's doc comment says a word is a run of characters without whitespace, so /\\s+/ is the documented meaning. Was split(' ') a deliberate choice? The README and the history would say.",
        'Checking whether the README or the history says anything about what a word is.',
        toolUse('read_file', { path: 'README.md' }),
        toolUse('bash', { command: 'git log --oneline -5 -- src/word-count.js' })
      ),
    () => {
      progress.compactRequested = true;
      return turn(
        'The investigation is done and its output is noise from here on. Compact now, keeping the root cause and the plan, then fix.',
        'The comparison confirms it: any gap other than one space breaks countWords. Compacting before the fix.',
        toolUse('compact', { focus: COMPACT_FOCUS })
      );
    },
    () =>
      turn(
        'Split the trimmed text on /\\s+/: it treats any run of whitespace as one separator and cannot produce empty words, since the text is trimmed and blank text returns 0 first.',
        'Fixing countWords, and removing the scratch comparison.',
        toolUse('edit_file', { path: 'src/word-count.js', old_string: BUGGY_LINE, new_string: FIXED_LINE }),
        toolUse('bash', { command: 'rm -r scratch' })
      ),
    (k) => {
      if (!k.fixApplied) return giveUp(`the edit failed: ${k.errors.at(-1) ?? 'no result'}`);
      return turn(
        'Run the whole suite again.',
        'Running the tests again.',
        toolUse('bash', { command: 'npm test 2>&1' })
      );
    },
    (k) => {
      if (k.failingAfterFix !== 0) return giveUp('the tests still fail after the fix');
      if (!k.testFileSeen) return giveUp('I never read the test file, so I cannot add a test to it');
      return turn(
        'All pass. The existing test mixes every kind of gap at once; a test with tabs only would have caught a fix that handled spaces alone.',
        'All tests pass. Adding a regression test for text separated by tabs only.',
        toolUse('edit_file', {
          path: 'test/word-count.test.js',
          old_string: LAST_TEST_END,
          new_string: `${LAST_TEST_END}\n\ntest('counts words separated by tabs only', () => {\n  assert.equal(countWords('one\\ttwo\\t\\tthree'), 3);\n});`
        })
      );
    },
    (k) => {
      if (!k.testAdded) return giveUp(`adding the test failed: ${k.errors.at(-1) ?? 'no result'}`);
      return turn(
        'Run the suite with the new test, and look at what the change set is.',
        'Running the tests with the new one, and checking the change set.',
        toolUse('bash', { command: 'npm test 2>&1' }),
        toolUse('bash', { command: 'git status --short && git diff --stat' })
      );
    },
    (k) => {
      if (k.failingAfterFix !== 0) return giveUp('the new test fails');
      progress.finished = true;
      return turn(
        'Done: the fix, one new test, and the scratch files are gone. Write the summary for the issue.',
        [
          'Fixed `countWords` in src/word-count.js: it split the trimmed text on a single space, so runs of',
          'spaces, tabs or line breaks produced empty or merged "words". It now splits on /\\s+/.',
          '',
          `A comparison over 1,500 generated lines found ${mismatches(k)} that countWords miscounted, all with a`,
          'gap other than one space. Added a regression test for text separated by tabs only.',
          '',
          `Verified with \`npm test\`: all ${k.passingAfterFix ?? 7} tests pass (1 failed before the change).`
        ].join('\n')
      );
    }
  ];

  const agentTurn = (request: ParsedRequest): ScriptedReply => {
    observe(request);
    const next = steps[Math.min(step, steps.length - 1)]!;
    step++;
    progress.agentTurns++;
    return next(known);
  };

  const summaryTurn = (request: ParsedRequest): ScriptedReply => {
    observe(request);
    const manual = progress.compactRequested && !progress.summaries.some((summary) => summary.manual);
    progress.summaries.push({ manual });
    return reply(
      thinking('Summarize what the next steps need: the bug, the evidence, what is done and what is left.'),
      text(manual ? focusedSummary(known) : progressSummary(known))
    );
  };

  const script: Script = (request) => (isSummaryRequest(request) ? summaryTurn(request) : agentTurn(request));
  return Object.assign(script, { progress });
}

function isSummaryRequest(request: ParsedRequest): boolean {
  const last = lastUserText(request);
  return SUMMARY_REQUEST_MARKERS.some((marker) => last.includes(marker));
}

function mismatches(known: Knowledge): string {
  return known.mismatchCount?.toLocaleString('en-US') ?? 'many';
}

function turn(thought: string, say: string, ...calls: ReplyBlock[]): ScriptedReply {
  return reply(thinking(thought), text(say), ...calls);
}

function giveUp(reason: string): ScriptedReply {
  return reply(thinking(`Something is off: ${reason}.`), text(`I stopped without a fix: ${reason}.`));
}

function learn(known: Knowledge, call: ToolUseBlockParam, result: string, isError: boolean): void {
  const input = call.input as Record<string, unknown>;
  const command = typeof input.command === 'string' ? input.command : '';
  const path = typeof input.path === 'string' ? input.path : '';
  if (isError && !(call.name === 'bash' && command.startsWith('npm test'))) {
    known.errors.push(`${call.name} ${command || path}: ${result.split('\n')[0] ?? ''}`);
  }
  if (call.name === 'bash' && command.startsWith('npm test')) {
    const failed = countOf('fail', result);
    if (!known.fixApplied) known.failingTests = failed;
    else {
      known.failingAfterFix = failed;
      known.passingAfterFix = countOf('pass', result);
    }
  }
  if (call.name === 'bash' && command.includes('grep -c MISMATCH') && !isError) {
    // The last line of stdout is grep's count.
    const count = /(\d+)\s*\n--- stderr ---/.exec(result);
    if (count) known.mismatchCount = Number(count[1]);
  }
  if (call.name === 'read_file' && !isError) {
    if (path === 'src/word-count.js' && result.includes(BUGGY_LINE)) known.buggyLineSeen = true;
    if (path === 'test/word-count.test.js') known.testFileSeen = true;
    const spilled = /is in (\S+):\s*$/m.exec(result);
    if (path === COMPARISON_OUTPUT && spilled) known.spillPath = spilled[1];
  }
  if (call.name === 'edit_file' && !isError && result.startsWith('Edited')) {
    if (path === 'src/word-count.js') known.fixApplied = true;
    if (path === 'test/word-count.test.js') known.testAdded = true;
  }
}

/** `node --test`'s count of passed or failed tests: `# fail N` (TAP, Node 20 off a terminal) or `ℹ fail N` (spec, Node 24). */
function countOf(kind: 'pass' | 'fail', output: string): number | undefined {
  const match = new RegExp(`^(?:#|ℹ) ${kind} (\\d+)$`, 'm').exec(output);
  return match ? Number(match[1]) : undefined;
}

/** The comparison the model writes: countWords against a whitespace-run count, one line per sample. */
function comparisonScript(): string {
  return [
    '// Compares countWords with a count of whitespace-separated runs on generated lines.',
    "import { countWords } from '../src/word-count.js';",
    '',
    "const words = ['the', 'quick', 'brown', 'fox', 'jumps', 'over', 'lazy', 'dog', 'again'];",
    "const gaps = [' ', '  ', '\\t', ' \\t ', '\\n', '   ', ' '];",
    'for (let i = 0; i < 1500; i++) {',
    '  let line = words[i % words.length];',
    '  for (let w = 1; w < 1 + (i % 7); w++) line += gaps[(i + w) % gaps.length] + words[(i * 3 + w) % words.length];',
    '  const expected = line.trim().split(/\\s+/).length;',
    '  const actual = countWords(line);',
    "  const verdict = actual === expected ? 'ok      ' : 'MISMATCH';",
    '  console.log(`${String(i + 1).padStart(4)} ${verdict} expected ${expected} got ${actual} ${JSON.stringify(line)}`);',
    '}',
    ''
  ].join('\n');
}

/** An auto-compaction summary as a real model writes it: the asked-for sections, loosely, some merged. */
function progressSummary(known: Knowledge): string {
  return [
    '## Task and intent',
    'Issue #1 (from @Codertocat): the word count test fails on text with several spaces; fix it.',
    '',
    '## Files and code',
    "- `src/word-count.js`: `countWords(text)` returns 0 for blank text, else `text.trim().split(' ').length`.",
    '  `countLines` is fine.',
    '- `test/word-count.test.js`: 4 tests; the failing one is',
    '  "counts words separated by runs of whitespace and line breaks" (`countWords(\'the  quick\\tbrown\\n\\nfox  \')` should be 4).',
    "- `src/top-words.js`: tokenizes with `/[\\p{L}\\p{N}']+/gu`, so it already ignores whitespace runs.",
    `- \`${COMPARISON_SCRIPT}\` (scratch, to delete): compares countWords with \`split(/\\s+/)\` on 1,500 generated lines,`,
    `  output in \`${COMPARISON_OUTPUT}\`${known.spillPath ? ` (also saved as ${known.spillPath})` : ''}.`,
    '',
    '## Errors and findings',
    `- \`npm test\`: ${known.failingTests ?? 1} failing of 6.`,
    `- Comparison: ${mismatches(known)} mismatches; every one has a double space, a tab or a newline between words.`,
    '',
    '## Current state and next step',
    `Investigation nearly done: ${known.spillPath ? 'the comparison output has been read' : 'the comparison has run'}. Nothing edited yet.`,
    'Next: replace the single-space split with `split(/\\s+/)`, delete `scratch/`, run `npm test`, and add a',
    'test for tab-only separators.'
  ].join('\n');
}

/** The summary for the model's own `compact` call: shorter, bullets, the focus first. */
function focusedSummary(known: Knowledge): string {
  return [
    `**Focus (${COMPACT_FOCUS}):**`,
    "- Root cause: `countWords` in `src/word-count.js` does `text.trim().split(' ').length`; a run of spaces yields",
    '  empty strings that are counted, and tabs or newlines are not separators at all.',
    '- Failing test: `test/word-count.test.js`, "counts words separated by runs of whitespace and line breaks".',
    `- Evidence: the scratch comparison found ${mismatches(known)} of 1,500 generated lines miscounted, all with a gap other than one space.`,
    '- Fix: `return text.trim().split(/\\s+/).length;` (blank text already returns 0 before it).',
    '',
    '**Task and intent:** fix the word count for text with several spaces (issue #1).',
    '',
    '**Current state:** nothing edited yet; `scratch/` holds the comparison script and its output and must be deleted.',
    '',
    '**Next step:** apply the fix, delete `scratch/`, run `npm test`, add a tab-only regression test, run it again.'
  ].join('\n');
}
