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

export type ProviderKind = ProviderConfig['kind'];
const PROVIDERS: readonly ProviderKind[] = ['anthropic', 'bedrock', 'vertex'];

/**
 * `provider` (anthropic, bedrock or vertex), or what the deprecated `use_bedrock` / `use_vertex`
 * chose; both set must agree. Undefined after a problem.
 */
function providerKind(
  raw: string,
  shown: string,
  legacy: ProviderKind | undefined,
  problems: string[]
): ProviderKind | undefined {
  const value = raw.trim().toLowerCase();
  if (value === '') return legacy ?? 'anthropic';
  const kind = PROVIDERS.find((candidate) => candidate === value);
  if (kind === undefined) {
    problems.push(
      `${shown} is "${raw.trim()}": write anthropic (the Claude API), bedrock (Amazon Bedrock) or vertex (Google Vertex AI).`
    );
    return undefined;
  }
  if (legacy !== undefined && legacy !== kind) {
    problems.push(
      `${shown} is ${kind}, but use_${legacy} is true: the model runs on one provider. Drop use_${legacy} (it is deprecated).`
    );
    return undefined;
  }
  return kind;
}

const BEDROCK_ONLY = ['aws_region'] as const;
const VERTEX_ONLY = ['vertex_project_id', 'vertex_region', 'vertex_access_token'] as const;

/** Parses the provider inputs, adding a problem for each mistake; undefined when they contradict. */
export function parseProvider(
  read: (name: string) => string,
  env: NodeJS.ProcessEnv,
  name: (input: string) => string,
  problems: string[]
): ProviderConfig | undefined {
  const legacyBedrock = parseBooleanInput(read('use_bedrock'), name('use_bedrock'), false, problems);
  const legacyVertex = parseBooleanInput(read('use_vertex'), name('use_vertex'), false, problems);
  if (legacyBedrock === undefined || legacyVertex === undefined) return undefined;
  if (legacyBedrock && legacyVertex) {
    problems.push(
      `${name('use_bedrock')} and ${name('use_vertex')} are both set: the model runs on one provider. ` +
        'Keep the one whose credentials this job has.'
    );
    return undefined;
  }
  const legacy: ProviderKind | undefined = legacyBedrock ? 'bedrock' : legacyVertex ? 'vertex' : undefined;
  const kind = providerKind(read('provider'), name('provider'), legacy, problems);
  if (kind === undefined) return undefined;
  const useBedrock = kind === 'bedrock';
  const useVertex = kind === 'vertex';
  // The messages below name the setting that chose the provider.
  const chosenBy = (old: string) => (legacy === undefined ? name('provider') : name(old));
  const stray = (inputs: readonly string[], provider: ProviderKind) => {
    for (const input of inputs) {
      if (read(input).trim() !== '') {
        problems.push(
          `${name(input)} is set, but the provider is not ${provider}: set ${name('provider')} to ${provider} too, or drop ${name(input)}.`
        );
      }
    }
  };
  if (!useBedrock) stray(BEDROCK_ONLY, 'bedrock');
  if (!useVertex) stray(VERTEX_ONLY, 'vertex');

  if (useBedrock) {
    const awsRegion =
      read('aws_region').trim() || env.AWS_REGION?.trim() || env.AWS_DEFAULT_REGION?.trim() || '';
    if (awsRegion === '') {
      problems.push(
        `${chosenBy('use_bedrock')} needs an AWS region: set ${name('aws_region')} (e.g. us-east-1), or the ` +
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
      problems.push(`${chosenBy('use_vertex')} needs ${missing.join(', and ')}.`);
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
