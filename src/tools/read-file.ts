import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './tool.js';
import { ToolError } from './tool-error.js';

export const DEFAULT_READ_LIMIT = 2000;
const MAX_LINE_CHARS = 2000;

const readFileInput = z.object({
  path: z.string().describe('File path, relative to the repository root.'),
  offset: z.number().int().min(1).optional().describe('First line to read, 1-based (default 1).'),
  limit: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`How many lines to read (default ${DEFAULT_READ_LIMIT}).`)
});

export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a text file with numbered lines. For large files, read a window with offset and limit.',
  inputSchema: readFileInput,
  async run(input, context) {
    const absolute = context.workspace.resolveForRead(input.path);
    const text = await readTextFile(absolute, input.path);
    const lines = splitLines(text);
    const first = input.offset ?? 1;
    const limit = input.limit ?? DEFAULT_READ_LIMIT;
    if (lines.length === 0) return { content: `(${input.path} is empty)` };
    if (first > lines.length) {
      throw new ToolError(
        `offset ${first} is past the end of ${input.path}, which has ${lines.length} lines.`
      );
    }
    const window = lines.slice(first - 1, first - 1 + limit);
    const numbered = window.map((line, index) => `${String(first + index).padStart(6)}\t${clip(line)}`);
    const last = first + window.length - 1;
    if (first > 1 || last < lines.length) {
      numbered.push(windowMarker(first, last, lines.length));
    }
    return { content: numbered.join('\n') };
  }
});

/** The last line of a read that shows only part of the file. */
function windowMarker(first: number, last: number, total: number): string {
  return `[lines ${first}-${last} of ${total}; use offset and limit to read more]`;
}

/** Matches the marker `windowMarker` writes, with the newline before it (compaction strips it). */
export const WINDOW_MARKER_PATTERN = /\n\[lines \d+-\d+ of \d+; use offset and limit to read more\]$/;

/** Reads a file as UTF-8 text, with errors the model can act on. */
export async function readTextFile(absolute: string, shownPath: string): Promise<string> {
  const info = await stat(absolute).catch(() => {
    throw new ToolError(`File not found: ${shownPath}`);
  });
  if (info.isDirectory()) throw new ToolError(`${shownPath} is a directory; use glob to list its files.`);
  const buffer = await readFile(absolute);
  if (buffer.subarray(0, 8000).includes(0)) throw new ToolError(`${shownPath} looks binary; not shown.`);
  return buffer.toString('utf8');
}

/** A text's lines as read_file numbers them: CRLF or LF, and no phantom line after a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function clip(line: string): string {
  return line.length <= MAX_LINE_CHARS ? line : `${line.slice(0, MAX_LINE_CHARS)} [... line cut]`;
}
