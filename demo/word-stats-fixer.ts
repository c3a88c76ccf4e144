import {
  reply,
  text,
  toolResultTexts,
  toolUse,
  toolUsesInHistory,
  type ParsedRequest,
  type Script,
  type ScriptedReply
} from '../test-support/fake-anthropic/index.js';

const BUGGY_LINE = "return text.trim().split(' ').length;";
const FIXED_LINE = 'return text.trim().split(/\\s+/).length;';

/**
 * The demo's scripted model. Like a real model it decides from what it was sent: it explores, runs
 * the tests, reads the failing module, fixes it, and runs the tests again, checking each result.
 */
export const wordStatsFixer: Script = (request) => nextStep(request);

function nextStep(request: ParsedRequest): ScriptedReply {
  const done = toolUsesInHistory(request).map((call) => `${call.name} ${JSON.stringify(call.input)}`);
  const latest = toolResultTexts(request);
  const has = (fragment: string) => done.some((call) => call.includes(fragment));

  if (done.length === 0) {
    return reply(
      text('I will look at the layout of the repository and run its tests first.'),
      toolUse('glob', { pattern: '**/*.js' }),
      toolUse('bash', { command: 'npm test 2>&1 | tail -40' })
    );
  }
  if (!has('read_file')) {
    const testOutput = latest[1] ?? '';
    if ((failedTests(testOutput) ?? 0) === 0) return giveUp('the tests did not fail as the task says');
    return reply(
      text('One test fails: countWords miscounts text with runs of whitespace. Reading the module.'),
      toolUse('read_file', { path: 'src/word-count.js' })
    );
  }
  if (!has('edit_file')) {
    if (!(latest[0] ?? '').includes(BUGGY_LINE))
      return giveUp('src/word-count.js does not split as I expected');
    return reply(
      text(
        "countWords splits on a single space, so '  ' or '\\n' produce empty words. Splitting on /\\s+/ fixes it."
      ),
      toolUse('edit_file', { path: 'src/word-count.js', old_string: BUGGY_LINE, new_string: FIXED_LINE })
    );
  }
  if (done.filter((call) => call.startsWith('bash')).length < 2) {
    if (!(latest[0] ?? '').startsWith('Edited')) return giveUp(`the edit failed: ${latest[0] ?? ''}`);
    return reply(text('Running the tests again.'), toolUse('bash', { command: 'npm test 2>&1 | tail -12' }));
  }
  const finalRun = latest[0] ?? '';
  if (failedTests(finalRun) !== 0) return giveUp('the tests still fail after the fix');
  return reply(
    text(
      [
        'Fixed `countWords` in src/word-count.js: it split on a single space, so runs of spaces, tabs or',
        'line breaks produced empty "words". It now splits the trimmed text on /\\s+/.',
        '',
        'Verified with `npm test`: all 6 tests pass (1 failed before the change).'
      ].join('\n')
    )
  );
}

function giveUp(reason: string): ScriptedReply {
  return reply(text(`I stopped without a fix: ${reason}.`));
}

/** `node --test`'s count of failed tests: `# fail N` (TAP, Node 20's default off a terminal) or `ℹ fail N` (spec, Node 24's). */
function failedTests(output: string): number | undefined {
  const match = /^(?:#|ℹ) fail (\d+)$/m.exec(output);
  return match ? Number(match[1]) : undefined;
}
