import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from './tool.js';
import { findFiles } from './file-search.js';
import { compileLinearRegex } from './linear-regex.js';

export const MAX_GREP_MATCHES = 200;
const MAX_FILE_BYTES = 2_000_000;
const MAX_MATCH_LINE_CHARS = 300;

const grepInput = z.object({
  pattern: z
    .string()
    .min(1)
    .describe(
      'JavaScript regular expression to search for (run on a linear-time engine: no lookaround or backreferences).'
    ),
  path: z.string().optional().describe('File or folder to search, relative to the repository root.'),
  glob: z.string().optional().describe('Only search files matching this glob, e.g. "**/*.ts".'),
  ignore_case: z.boolean().optional().describe('Case-insensitive search.')
});

export const grepTool = defineTool({
  name: 'grep',
  description:
    'Search file contents with a regular expression. Returns path:line: text for each matching line ' +
    `(at most ${MAX_GREP_MATCHES}); honours .gitignore.`,
  inputSchema: grepInput,
  async run(input, context) {
    const regex = compileLinearRegex(input.pattern, { ignoreCase: input.ignore_case === true });
    const files = await findFiles(context.workspace, input.glob ?? '**/*', input.path);
    const matches: string[] = [];
    let total = 0;
    for (const file of files) {
      context.signal.throwIfAborted();
      const text = await readSearchable(path.join(context.workspace.root, file));
      if (text === undefined) continue;
      const lines = text.split('\n');
      for (let index = 0; index < lines.length; index++) {
        const line = lines[index] ?? '';
        if (!regex.test(line)) continue;
        total++;
        if (matches.length < MAX_GREP_MATCHES) matches.push(`${file}:${index + 1}: ${clip(line.trim())}`);
      }
    }
    if (total === 0) return { content: `No matches for /${input.pattern}/ in ${files.length} files.` };
    if (total > matches.length) matches.push(`[${total - matches.length} more matches; narrow the search]`);
    return { content: matches.join('\n') };
  }
});

/** Skips files that are too big or binary: neither gives a useful line match. */
async function readSearchable(absolute: string): Promise<string | undefined> {
  const info = await stat(absolute).catch(() => undefined);
  if (!info || info.size > MAX_FILE_BYTES) return undefined;
  const buffer = await readFile(absolute);
  if (buffer.subarray(0, 8000).includes(0)) return undefined;
  return buffer.toString('utf8');
}

function clip(line: string): string {
  return line.length <= MAX_MATCH_LINE_CHARS ? line : `${line.slice(0, MAX_MATCH_LINE_CHARS)}…`;
}
