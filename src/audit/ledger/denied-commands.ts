import { transcriptEvent } from '../../transcript/events.js';
import { unsealLine } from '../../transcript/line-envelope.js';

/** At most this many refused commands per row: a run that hammers a rule is one rule, not a thousand cells. */
const MAX_DENIED = 50;

/**
 * The calls the tool limits refused, as the transcript's tool_result events record them
 * (`denied`: the rule and the command's first words), each once, in order.
 */
export function deniedCommandsOf(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    if (!line.includes('"denied"')) continue;
    const body = unsealLine(line)?.body ?? line;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch {
      continue;
    }
    const event = transcriptEvent.safeParse(value);
    if (!event.success || event.data.type !== 'tool_result' || !event.data.denied) continue;
    seen.add(`${event.data.denied.head} (${event.data.denied.rule})`);
    if (seen.size >= MAX_DENIED) break;
  }
  return [...seen];
}
