import { parseBooleanInput } from './boolean-input.js';

/**
 * The provider inputs: `use_bedrock` / `use_vertex` (as claude-code-action names them) and what each
 * needs. Unset inputs fall back to the variables the official auth actions and SDKs use: AWS_REGION
 * (aws-actions/configure-aws-credentials sets it), ANTHROPIC_VERTEX_PROJECT_ID / GOOGLE_CLOUD_PROJECT
 * and CLOUD_ML_REGION.
 */
export type ProviderConfig =
  | { readonly kind: 'anthropic' }
  | {
      readonly kind: 'bedrock';
      readonly awsRegion: string;
      /** ANTHROPIC_BEDROCK_BASE_URL: a gateway or a fake; default the region's bedrock-runtime. */
      readonly baseURL: string | undefined;
    }
  | {
      readonly kind: 'vertex';
      readonly projectId: string;
      readonly region: string;
      /**
       * An OAuth access token (google-github-actions/auth with `token_format: access_token`): no
       * credentials file on disk. Undefined: Application Default Credentials.
       */
      readonly accessToken: string | undefined;
      /** ANTHROPIC_VERTEX_BASE_URL: a gateway or a fake; default the region's aiplatform endpoint. */
      readonly baseURL: string | undefined;
    };

const BEDROCK_ONLY = ['aws_region'] as const;
const VERTEX_ONLY = ['vertex_project_id', 'vertex_region', 'vertex_access_token'] as const;

/** Parses the provider inputs, adding a problem for each mistake; undefined when they contradict. */
export function parseProvider(
  read: (name: string) => string,
  env: NodeJS.ProcessEnv,
  name: (input: string) => string,
  problems: string[]
): ProviderConfig | undefined {
  const useBedrock = parseBooleanInput(read('use_bedrock'), name('use_bedrock'), false, problems);
  const useVertex = parseBooleanInput(read('use_vertex'), name('use_vertex'), false, problems);
  if (useBedrock === undefined || useVertex === undefined) return undefined;
  if (useBedrock && useVertex) {
    problems.push(
      `${name('use_bedrock')} and ${name('use_vertex')} are both set: the model runs on one provider. ` +
        'Keep the one whose credentials this job has.'
    );
    return undefined;
  }
  const stray = (inputs: readonly string[], switchName: string) => {
    for (const input of inputs) {
      if (read(input).trim() !== '') {
        problems.push(
          `${name(input)} is set, but ${name(switchName)} is not: set ${name(switchName)} too, or drop ${name(input)}.`
        );
      }
    }
  };
  if (!useBedrock) stray(BEDROCK_ONLY, 'use_bedrock');
  if (!useVertex) stray(VERTEX_ONLY, 'use_vertex');

  if (useBedrock) {
    const awsRegion =
      read('aws_region').trim() || env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || '';
    if (awsRegion === '') {
      problems.push(
        `${name('use_bedrock')} needs an AWS region: set ${name('aws_region')} (e.g. us-east-1), or the ` +
          'environment variable AWS_REGION (aws-actions/configure-aws-credentials sets it from its aws-region).'
      );
      return undefined;
    }
    return { kind: 'bedrock', awsRegion, baseURL: env.ANTHROPIC_BEDROCK_BASE_URL?.trim() || undefined };
  }
  if (useVertex) {
    const projectId =
      read('vertex_project_id').trim() ||
      env.ANTHROPIC_VERTEX_PROJECT_ID?.trim() ||
      env.GOOGLE_CLOUD_PROJECT?.trim() ||
      '';
    const region = read('vertex_region').trim() || env.CLOUD_ML_REGION?.trim() || '';
    const missing = [
      projectId === ''
        ? `a Google Cloud project: set ${name('vertex_project_id')} (or ANTHROPIC_VERTEX_PROJECT_ID)`
        : undefined,
      region === ''
        ? `a region: set ${name('vertex_region')} (global, us-east5, europe-west1, ...; or CLOUD_ML_REGION)`
        : undefined
    ].filter((part): part is string => part !== undefined);
    if (missing.length > 0) {
      problems.push(`${name('use_vertex')} needs ${missing.join(', and ')}.`);
      return undefined;
    }
    return {
      kind: 'vertex',
      projectId,
      region,
      accessToken: read('vertex_access_token').trim() || undefined,
      baseURL: env.ANTHROPIC_VERTEX_BASE_URL?.trim() || undefined
    };
  }
  return { kind: 'anthropic' };
}
