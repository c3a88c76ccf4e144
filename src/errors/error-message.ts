/**
 * An error in words, for a log line, a warning, a report or the model. Anything can be thrown;
 * only an Error carries a message, anything else reads as it converts to a string.
 */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Its first line, trimmed: git and storage errors go on with hints and request ids nobody needs there. */
export function errorFirstLine(error: unknown): string {
  return errorMessage(error).split('\n')[0]!.trim();
}

/** With the error's class (`TypeError: …`), so the model can tell a bug in a tool from a refusal. */
export function namedErrorMessage(error: unknown): string {
  return error instanceof Error ? `${error.name}: ${error.message}` : String(error);
}
