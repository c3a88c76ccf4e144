import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { defineTool } from './tool.js';

const writeFileInput = z.object({
  path: z.string().describe('File path, relative to the repository root. Parent folders are created.'),
  content: z.string().describe('The whole new content of the file.')
});

export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Create or overwrite a file with the given content. Prefer edit_file to change part of a file.',
  inputSchema: writeFileInput,
  async run(input, context) {
    const absolute = context.workspace.resolveForWrite(input.path);
    await mkdir(path.dirname(absolute), { recursive: true });
    await writeFile(absolute, input.content, 'utf8');
    const lines = input.content === '' ? 0 : input.content.split('\n').length;
    return { content: `Wrote ${lines} lines (${Buffer.byteLength(input.content)} bytes) to ${input.path}.` };
  }
});
