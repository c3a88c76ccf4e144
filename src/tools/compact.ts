import { z } from 'zod';
import { defineTool } from './tool.js';

const compactInput = z.object({
  focus: z
    .string()
    .optional()
    .describe('What the summary must keep, e.g. "the API design decisions". Optional.')
});

/** The model's own way to make room. The loop runs the compaction after answering this turn's tools. */
export const compactTool = defineTool({
  name: 'compact',
  description:
    'Compact the conversation: older turns are summarized to free context. Call it when you finish a ' +
    'phase of work and the details of earlier steps no longer matter. The run continues afterwards.',
  inputSchema: compactInput,
  async run(input, context) {
    const focus = input.focus?.trim() || undefined;
    context.requestCompaction(focus);
    return {
      content: focus
        ? `Compaction requested with focus "${focus}"; it runs once this turn's results are in.`
        : "Compaction requested; it runs once this turn's results are in."
    };
  }
});
