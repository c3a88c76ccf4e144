import { encodedForms } from './secret-forms.js';
import { SeparatedSecrets } from './separated-secrets.js';

/**
 * A token that starts with `prefix`, not preceded by a letter or digit: `_ghp_…` and `=ghp_…` match,
 * `xghp_…` does not. The prefix comes first and the look-behind after it, so the engine scans for
 * the literal (a look-behind first is several times slower on a large tool result).
 */
function token(prefix: string, rest: string): RegExp {
  return new RegExp(`${prefix}(?<![A-Za-z0-9]${prefix})${rest}`, 'g');
}

/**
 * Shapes of secrets worth hiding even when nobody told us their value. A pattern with a capture
 * group keeps that group (a label such as `aws_secret_access_key=`) and hides the rest.
 */
const SECRET_PATTERNS: readonly RegExp[] = [
  token('gh[pousr]_', '[A-Za-z0-9]{30,}'), // GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_
  token('github_pat_', '[A-Za-z0-9_]{30,}'),
  token('sk-ant-', '[A-Za-z0-9_-]{20,}'), // Anthropic keys
  token('npm_', '[A-Za-z0-9]{30,}'), // npm access tokens
  token('(?:AKIA|ASIA|ABIA|ACCA)', '[0-9A-Z]{16}'), // AWS access key ids
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
 * artifact. Every encoded form of every known value is computed once, here: the
 * redactor runs on every tool result, so a call is one scan per form and per pattern.
 */
export class Redactor {
  /** Longest first, so a form that contains another is replaced whole. */
  private readonly known: readonly string[];
  /** The values as written, also when split over lines or interleaved with invisible characters. */
  private readonly separated: SeparatedSecrets;

  constructor(secrets: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    const values: string[] = [];
    for (const secret of secrets) {
      // Short values would redact ordinary words; real secrets are long.
      if (!secret || secret.length < 8) continue;
      values.push(secret);
      for (const form of encodedForms(secret)) forms.add(form);
    }
    this.known = [...forms].sort((a, b) => b.length - a.length);
    this.separated = new SeparatedSecrets(values);
  }

  readonly redact = (text: string): string => {
    // One plain substring search per form: faster than one alternation of all of them in V8.
    let result = text;
    for (const form of this.known) if (result.includes(form)) result = result.replaceAll(form, REDACTED);
    result = this.separated.hide(result, REDACTED);
    for (const pattern of SECRET_PATTERNS) {
      result = result.replace(pattern, (match, prefix?: unknown) =>
        typeof prefix === 'string' && match.startsWith(prefix) ? `${prefix}${REDACTED}` : REDACTED
      );
    }
    return result;
  };
}

/** The secrets the action knows by value: its inputs and what the runner hands it. */
export function knownSecrets(env: NodeJS.ProcessEnv, inputs: readonly (string | undefined)[]): string[] {
  // Any variable whose name says it holds a secret counts, not only the ones we know by name.
  const named = Object.entries(env).flatMap(([name, value]) =>
    isSecretName(name) && value && !isLocationOfSecret(name, value) ? [value] : []
  );
  return [
    ...inputs,
    env.ACTIONS_RUNTIME_TOKEN,
    env.ACTIONS_ID_TOKEN_REQUEST_TOKEN,
    env.GITHUB_TOKEN,
    ...named
  ].filter((value): value is string => typeof value === 'string' && value.length >= 8);
}

/**
 * A variable that names where a secret lives (AWS_SHARED_CREDENTIALS_FILE=/home/me/.aws/credentials,
 * GOOGLE_APPLICATION_CREDENTIALS=/path/key.json) holds a path, not the secret: masking it would
 * hide that path wherever it appears in a task or a transcript.
 */
function isLocationOfSecret(name: string, value: string): boolean {
  return LOCATION_NAME.test(name) && /^(\/|~\/)/.test(value);
}
const LOCATION_NAME = /(_FILE|_DIR|_DIRECTORY|_PATH|^GOOGLE_APPLICATION_CREDENTIALS)$/i;

/** Whether a variable's name says it holds a secret. */
export function isSecretName(name: string): boolean {
  return (SECRET_NAME.test(name) || SECRET_SUFFIX.test(name)) && !NOT_SECRET.has(name);
}

const SECRET_NAME = /(TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|PRIVATE_?KEY|CREDENTIAL)/i;
/** Secrets named by their last word: SIGNING_KEY, DB_PASS, GH_PAT, GPG_PASSPHRASE. */
const SECRET_SUFFIX = /_(?:KEY|PASS|PAT|PASSPHRASE)$/i;
/** Names that match the pattern but hold no secret (URLs, paths, flags). */
const NOT_SECRET = new Set([
  'ACTIONS_ID_TOKEN_REQUEST_URL',
  'INPUT_MAX_OUTPUT_TOKENS',
  'INPUT_CONTEXT_BUDGET_TOKENS'
]);
