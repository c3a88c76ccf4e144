/** Shapes of secrets worth hiding even when nobody told us their value. */
const SECRET_PATTERNS: readonly RegExp[] = [
  /\bgh[pousr]_[A-Za-z0-9]{30,}\b/g, // GitHub tokens: ghp_, gho_, ghu_, ghs_, ghr_
  /\bgithub_pat_[A-Za-z0-9_]{40,}\b/g,
  /\bsk-ant-[A-Za-z0-9_-]{20,}/g, // Anthropic keys
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, // AWS access key ids
  /(aws_secret_access_key\s*[=:]\s*["']?)[A-Za-z0-9/+]{40}/gi,
  /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g, // JWTs
  /(AUTHORIZATION:\s*(?:basic|bearer|token)\s+)[A-Za-z0-9+/=._-]{16,}/gi // git extraheaders
];

export const REDACTED = '***';

/**
 * Replaces known secret values and secret-shaped strings before text leaves the process:
 * transcripts, comments, the job summary, PR titles and bodies, commit messages and logs.
 */
export class Redactor {
  private readonly values: string[];

  constructor(secrets: readonly (string | undefined)[]) {
    const forms = new Set<string>();
    for (const secret of secrets) {
      // Short values would redact ordinary words; real secrets are long.
      if (!secret || secret.length < 8) continue;
      forms.add(secret);
      forms.add(JSON.stringify(secret).slice(1, -1)); // as it appears inside JSON lines
      forms.add(Buffer.from(secret).toString('base64')); // as in a basic-auth header
    }
    this.values = [...forms].sort((a, b) => b.length - a.length);
  }

  readonly redact = (text: string): string => {
    let result = text;
    for (const value of this.values) result = result.split(value).join(REDACTED);
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
