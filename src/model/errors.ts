import { APIError } from '@anthropic-ai/sdk';

/**
 * The API's own measure of a prompt that did not fit: `prompt is too long: N tokens > M maximum`.
 * Undefined for any other error.
 */
export function promptTooLong(
  error: unknown
): { readonly actualTokens: number | undefined; readonly maximumTokens: number | undefined } | undefined {
  if (!(error instanceof APIError) || error.status !== 400) return undefined;
  const match = /prompt is too long(?::\s*(\d+) tokens > (\d+) maximum)?/.exec(error.message);
  if (!match) return undefined;
  return {
    actualTokens: match[1] ? Number(match[1]) : undefined,
    maximumTokens: match[2] ? Number(match[2]) : undefined
  };
}
