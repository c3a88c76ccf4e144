import { writeFile } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from './tool.js';
import { ToolError } from './tool-error.js';
import { readTextFile } from './read-file.js';

const editFileInput = z.object({
  path: z.string().describe('File path, relative to the repository root.'),
  old_string: z.string().min(1).describe('Exact text to replace. It must occur exactly once in the file.'),
  new_string: z.string().describe('The replacement text.')
});

export const editFileTool = defineTool({
  name: 'edit_file',
  description:
    'Replace one exact, unique occurrence of old_string with new_string in a file. ' +
    'Include enough surrounding lines in old_string to make it unique.',
  inputSchema: editFileInput,
  async run(input, context) {
    if (input.old_string === input.new_string) {
      throw new ToolError('old_string and new_string are identical; nothing to change.');
    }
    const absolute = context.workspace.resolveForWrite(input.path);
    const text = await readTextFile(absolute, input.path);
    const occurrences = countOccurrences(text, input.old_string);
    if (occurrences === 0) {
      throw new ToolError(
        `old_string was not found in ${input.path}. Read the file again and copy the text exactly, including whitespace.`
      );
    }
    if (occurrences > 1) {
      throw new ToolError(
        `old_string occurs ${occurrences} times in ${input.path}; include more surrounding text so it is unique.`
      );
    }
    const index = text.indexOf(input.old_string);
    const updated = text.slice(0, index) + input.new_string + text.slice(index + input.old_string.length);
    await writeFile(absolute, updated, 'utf8');
    const line = text.slice(0, index).split('\n').length;
    return { content: `Edited ${input.path} at line ${line}.` };
  }
});

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + needle.length)) count++;
  return count;
}
