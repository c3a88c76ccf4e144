import { encodedForms } from './secret-forms.js';

/** Not preceded by a letter or digit: `_ghp_…` and `=ghp_…` still match, `xghp_…` does not. */
const START = '(?<![A-Za-z0-9])';

/**
 * Shapes of secrets worth hiding even when nobody told us their value. A pattern with a capture
 * group keeps that group (a label such as `aws_secret_access_key=`) and hides the rest.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  new RegExp(`${START}gh[pousr]_[A-Za-z0-9]{30,}`, 'g'), // GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_
  new RegExp(`${START}github_pat_[A-Za-z0-9_]{30,}`, 'g'),
  new RegExp(`${START}sk-ant-[A-Za-z0-9_-]{20,}`, 'g'), // Anthropic keys
  new RegExp(`${START}npm_[A-Za-z0-9]{30,}`, 'g'), // npm access tokens
  new RegExp(`${START}(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}`, 'g'), // AWS access key ids
  // The label may be quoted and JSON-escaped (`\"aws_secret_access_key\": \"…`).
  /(aws_?secret_?access_?key(?:\\?["'])?\s*[=:]\s*(?:\\?["'])?)[A-Za-z0-9/+=]{20,}/gi,
  // A PEM block, terminated or not. Its body may hold JSON escapes (`\n`) but never a quote, so a
  // block inside a JSON string is replaced without breaking the line around it.
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=:,\s]|\\[nrt\\]|-(?!----END))*(?:-----END [A-Z0-9 ]*PRIVATE KEY-----)?/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
  /(AUTHORIZATION:\s*(?:basic|bearer|token)\s+)[A-Za-z0-9+/=._-]{16,}/gi // git extraheaders
];

export const REDACTED = '***';

/**
 * Replaces known secret values and secret-shaped strings before text leaves the process:
 * transcripts, comments, the job summary, PR titles and bodies, commit messages, logs and the
 * artifact. Every encoded form of every known value is computed once, here, into one pattern: the
 * redactor runs on every tool result, so a call is a single scan per pattern.
 */
export class Redactor {
  private readonly known: RegExp | undefined;

  constructor(secrets: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      // Short values would redact ordinary words; real secrets are long.
      if (!secret || secret.length < 8) continue;
      for (const form of encodedForms(secret)) forms.add(form);
    }
    // Longest first, so a form that contains another is replaced whole.
    const sorted = [...forms].sort((a, b) => b.length - a.length);
    this.known = sorted.length > 0 ? new RegExp(sorted.map(escapeRegExp).join('|'), 'g') : undefined;
  }

  readonly redact = (text: string): string => {
    let result = this.known ? text.replace(this.known, REDACTED) : text;
    for (const pattern of SECRET_PATTERNS) {
      result = result.replace(pattern, (match, prefix?: unknown) =>
        typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${REDACTED}` : REDACTED
      );
    }
    return result;
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

/** The secrets the action knows by value: its inputs and what the runner hands it. */
export function knownSecrets(env: NodeJS.ProcessEnv, inputs: readonly (string | undefined)[]): string[] {
  // Any variable whose name says it holds a secret counts, not only the ones we know by name.
  const named = Object.entries(env).flatMap(([name, value]) => (isSecretName(name) && value ? [value] : []));
  return [
    ...inputs,
    env.ACTIONS_RUNTIME_TOKEN,
    env.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
    env.GITHUB_TOKEN,
    ...named
  ].filter((value): value is string => typeof value === 'string' && value.length >= 8);
}

/** Whether a variable's name says it holds a secret. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !NOT_SECRET.has(name);
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|CREDENTIAL)/i;
/** Names that match the pattern but hold no secret (URLs, paths, flags). */
const NOT_SECRET = new Set([
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'INPUT_MAX_OUTPUT_TOKENS',
  'INPUT_CONTEXT_BUDGET_TOKENS'
]);
