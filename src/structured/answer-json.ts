import { errorMessage } from '../errors/error-message.js';

export type AnswerJson =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly problem: string };

/** A fenced block (```json … ``` or ``` … ```); its body is group 1. */
const FENCE = /```[ \t]*(?:json|JSON)?[ \t]*\r?\n([\s\S]*?)\r?\n?```/;

/**
 * The JSON value in the model's answer. Asked for JSON only, models still often wrap it in a
 * ```json fence, sometimes with a line of prose around it: the whole text is tried first, then the
 * first fenced block. Nothing else is guessed at (no repair of broken JSON): a wrong answer is asked
 * for again instead.
 */
export function answerJson(text: string): AnswerJson {
  const whole = text.trim();
  if (whole === '') return { ok: false, problem: 'the answer is empty' };
  const direct = parse(whole);
  if (direct.ok) return direct;
  const fenced = FENCE.exec(whole)?.[1];
  if (fenced !== undefined) {
    const inner = parse(fenced.trim());
    if (inner.ok) return inner;
    return { ok: false, problem: `the fenced block of the answer is not valid JSON (${inner.problem})` };
  }
  return { ok: false, problem: `the answer is not valid JSON (${direct.problem})` };
}

function parse(text: string): AnswerJson {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: errorMessage(error) };
  }
}
