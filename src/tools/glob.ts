import { z } from 'zod';
import { defineTool } from './tool.js';
import { findFiles } from './file-search.js';

export const MAX_GLOB_RESULTS = 500;

const globInput = z.object({
  pattern: z.string().min(1).describe('Glob pattern, e.g. "src/**/*.ts" or "**/*.test.js".'),
  path: z
    .string()
    .optional()
    .describe('Folder to search in, relative to the repository root (default: root).')
});

export const globTool = defineTool({
  name: 'glob',
  description: 'List files matching a glob pattern (honours .gitignore; skips .git and node_modules).',
  inputSchema: globInput,
  async run(input, context) {
    const files = await findFiles(context.workspace, input.pattern, input.path);
    if (files.length === 0) return { content: `No files match ${input.pattern}.` };
    const shown = files.slice(0, MAX_GLOB_RESULTS);
    if (files.length > shown.length) {
      shown.push(`[${files.length - shown.length} more files; narrow the pattern]`);
    }
    return { content: shown.join('\n') };
  }
});
