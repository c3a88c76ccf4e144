import {
  reply,
  text,
  toolResultTexts,
  toolUse,
  type ReplyBlock,
  type Script,
  type ScriptedReply
} from '../../test-support/fake-anthropic/index.js';

/**
 * A scripted model that explores a real code base for `turns` turns the way an agent does: it globs,
 * then reads the files it found (in windows), greps, runs commands, makes one failing call, edits a
 * file it read, writes a note, and ends. It picks paths from the glob result it was sent.
 */
export function explorerScript(turns: number): Script {
  let files: string[] = [];
  return (request, { callIndex }): ScriptedReply => {
    const results = toolResultTexts(request);
    if (callIndex === 1) files = (results[0] ?? '').split('\n').filter((line) => line.endsWith('.js'));
    const file = (k: number) => files[k % Math.max(files.length, 1)] ?? 'index.js';
    const step = callIndex;

    if (step === 0) {
      return reply(
        text('Mapping the code base.'),
        toolUse('glob', { pattern: '**/*.js' }),
        toolUse('bash', { command: 'ls' })
      );
    }
    if (files.length === 0) return reply(text('The glob found no JavaScript files; stopping.'));
    if (step >= turns - 1)
      return reply(text(`Explored ${files.length} files over ${turns} turns; added NOTES.md.`));
    const planned: Record<number, ReplyBlock[]> = {
      1: [
        toolUse('grep', { pattern: 'module\\.exports|exports\\.', glob: '**/*.js' }),
        toolUse('bash', { command: 'find . -name "*.js" | wc -l' })
      ],
      4: [toolUse('read_file', { path: 'does/not/exist.js' })],
      6: [
        toolUse('read_file', { path: file(1), limit: 40 }),
        toolUse('grep', { pattern: 'function', path: file(2) }),
        toolUse('bash', { command: `node --check ${file(2)} && echo syntax-ok` })
      ],
      9: [toolUse('read_file', { path: file(0), limit: 1 })],
      10: [editFirstLine(results[0] ?? '', file(0))],
      12: [
        toolUse('write_file', {
          path: 'NOTES.md',
          content: `# Notes\n\n${files.length} JavaScript files explored.\n`
        })
      ],
      15: [toolUse('bash', { command: 'git status --short' })]
    };
    const blocks = planned[step] ?? [
      step % 5 === 0
        ? toolUse('bash', { command: `wc -l ${file(step)}` })
        : toolUse('read_file', { path: file(step), limit: 20 + step })
    ];
    return reply(text(`Step ${step}.`), ...blocks);
  };
}

/** An edit whose old_string is the first line as read_file returned it: the model reacts to the file. */
function editFirstLine(readResult: string, path: string): ReplyBlock {
  const firstLine = readResult.split('\n')[0]?.replace(/^\s*\d+\t/, '') ?? '';
  return toolUse('edit_file', { path, old_string: firstLine, new_string: `${firstLine} // reviewed` });
}
