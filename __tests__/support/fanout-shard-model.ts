import {
  messageText,
  reply,
  text,
  toolResults,
  toolUse,
  type ParsedRequest,
  type Script
} from '../../test-support/fake-anthropic/index.js';

/**
 * The scripted model of the fan-out tests: it plays each shard by reading its paths from the
 * shard's task and rewriting each file from oldApi() to newApi(). The sets make chosen shards
 * misbehave; a test fills them before the run.
 */
export const unitFile = (index: number) => `src/mod${String(index).padStart(2, '0')}.ts`;
export const before = (file: string) => `// ${file}\nexport const value = oldApi();\n`;
export const after = (file: string) => `// ${file}\nexport const value = newApi();\n`;

export interface ShardMisbehaviour {
  /** Shards whose model writes a broken file (the validation fails). */
  readonly breaks: Set<string>;
  /** Shards whose model also writes README.md, outside its paths. */
  readonly strays: Set<string>;
  /** Shards whose model keeps working, with long answers, until its budget stops it. */
  readonly spends?: Set<string>;
}

function taskOf(request: ParsedRequest): string {
  const first = request.messages[0];
  return first ? messageText(first) : '';
}

/** The shard a request works for, from its task. */
export const shardOf = (request: ParsedRequest): string | undefined =>
  /<fanout-shard id="(shard-\d+)"/.exec(taskOf(request))?.[1];

const pathsOf = (request: ParsedRequest) =>
  [...taskOf(request).matchAll(/^- (src\/mod\d+\.ts)$/gm)].map((match) => match[1]!);

export function shardModelScript(misbehaviour: ShardMisbehaviour): Script {
  return (request) => {
    const shard = shardOf(request);
    if (shard && misbehaviour.spends?.has(shard))
      // About 5,000 output tokens an answer, and always one more command: only the budget stops it.
      return reply(text(`Still thinking. ${'x '.repeat(5000)}`), toolUse('bash', { command: 'true' }));
    if (toolResults(request).length > 0 || !shard) return reply(text(`${shard ?? 'no shard'}: replaced.`));
    const writes = pathsOf(request).map((file, index) =>
      toolUse(
        'write_file',
        { path: file, content: misbehaviour.breaks.has(shard) ? 'BROKEN\n' : after(file) },
        `w${index}`
      )
    );
    if (misbehaviour.strays.has(shard))
      writes.push(toolUse('write_file', { path: 'README.md', content: 'stray\n' }, 'stray'));
    return reply(text('Rewriting the files of this shard.'), ...writes);
  };
}
