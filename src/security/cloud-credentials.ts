import { realpathSync } from 'node:fs';
import path from 'node:path';

/**
 * Variables through which AWS and Google credentials reach the SDKs (the AWS default credential chain,
 * Google Application Default Credentials, and what aws-actions/configure-aws-credentials and
 * google-github-actions/auth export). They stay in the action's memory for the SDK; the agent's shell
 * never gets them, not even when `bash_env_passthrough` names them.
 */
export const CLOUD_CREDENTIAL_VARIABLES: readonly string[] = [
  'AWS_ACCESS_KEY_ID',
  'AWS_SECRET_ACCESS_KEY',
  'AWS_SESSION_TOKEN',
  'AWS_SECURITY_TOKEN',
  'AWS_CREDENTIAL_EXPIRATION',
  'AWS_BEARER_TOKEN_BEDROCK',
  'AWS_WEB_IDENTITY_TOKEN_FILE',
  'AWS_ROLE_ARN',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_CONTAINER_CREDENTIALS_FULL_URI',
  'AWS_CONTAINER_CREDENTIALS_RELATIVE_URI',
  'AWS_CONTAINER_AUTHORIZATION_TOKEN',
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_GHA_CREDS_PATH',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'CLOUDSDK_AUTH_ACCESS_TOKEN',
  'GOOGLE_OAUTH_ACCESS_TOKEN'
];

/** Variables that name a credentials file on disk (which the agent's shell could read, or commit). */
const CREDENTIAL_FILE_VARIABLES: readonly string[] = [
  'GOOGLE_APPLICATION_CREDENTIALS',
  'GOOGLE_GHA_CREDS_PATH',
  'CLOUDSDK_AUTH_CREDENTIAL_FILE_OVERRIDE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'AWS_WEB_IDENTITY_TOKEN_FILE'
];

/**
 * Why the run must not start (undefined when it may): a credentials file inside the repository the
 * agent works in. google-github-actions/auth writes `gha-creds-<id>.json` into GITHUB_WORKSPACE by
 * default (`create_credentials_file: true`); the agent could read it, print it, or commit it, and for
 * Workload Identity Federation it holds the job's OIDC request token, with which anyone can act as the
 * service account until the job ends.
 */
export function credentialFileInRepository(env: NodeJS.ProcessEnv, repoDir: string): string | undefined {
  const root = realOrResolved(repoDir);
  for (const name of CREDENTIAL_FILE_VARIABLES) {
    const value = env[name]?.trim();
    if (!value) continue;
    const file = realOrResolved(path.resolve(root, value));
    const relative = path.relative(root, file);
    if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) continue;
    return (
      `The credentials file named by ${name} (${relative}) is inside the repository the agent works in, ` +
      'so the agent could read it, print it or commit it. google-github-actions/auth writes it there by ' +
      'default. Use `create_credentials_file: false` with `token_format: access_token` and pass ' +
      '`${{ steps.auth.outputs.access_token }}` as vertex_access_token (no file at all), or move the file ' +
      'out of the workspace before this step; see docs/setup.md#amazon-bedrock-and-google-vertex-ai.'
    );
  }
  return undefined;
}

function realOrResolved(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}
