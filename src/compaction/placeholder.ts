import { describeToolCall } from '../tools/describe-call.js';

/** Marks a result that micro-compaction replaced; such results are never cleared twice. */
export const CLEARED_PREFIX = '[cleared: ';

/**
 * What stays of a cleared result: the call, its key input, its size, and how to get it back, e.g.
 * `[cleared: read_file src/app.ts, 412 lines; run the tool again if needed]`.
 */
export function placeholderFor(name: string, input: unknown, resultText: string | undefined): string {
  // Undefined: the text is not known (a note of a partial repeat), so no size is claimed.
  const lines = resultText === undefined ? undefined : resultText === '' ? 0 : resultText.split('\n').length;
  const exit = name === 'bash' && resultText ? /^exit code: (\S+)/.exec(resultText)?.[1] : undefined;
  const details = [
    describeToolCall(name, input, 120),
    ...(exit ? [`exit code ${exit}`] : []),
    ...(lines === undefined ? [] : [`${lines} lines`])
  ];
  return `${CLEARED_PREFIX}${details.join(', ')}; run the tool again if needed]`;
}
