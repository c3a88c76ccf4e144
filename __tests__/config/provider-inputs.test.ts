import { InputError, parseAgentConfig, type AgentConfig } from '../../src/config/inputs.js';
import { BEDROCK_MODEL_IDS, providerModel, VERTEX_MODEL_IDS } from '../../src/config/provider-models.js';
import { MODEL_CATALOGUE } from '../../src/config/model-catalog.js';
import { CLI_INPUT_NAMING } from '../../src/cli/args.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

function parse(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}): AgentConfig {
  return parseAgentConfig(reader(inputs), env);
}

function problemsOf(
  inputs: Record<string, string>,
  env: NodeJS.ProcessEnv = {},
  naming = undefined
): readonly string[] {
  try {
    parseAgentConfig(reader(inputs), env, naming);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('use_bedrock and use_vertex', () => {
  it('needs no Anthropic key on Bedrock, takes the region from AWS_REGION and maps the model', () => {
    const config = parse({ use_bedrock: 'true' }, { AWS_REGION: 'eu-central-1' });
    expect(config.apiKey).toBe('');
    expect(config.provider).toEqual({ kind: 'bedrock', awsRegion: 'eu-central-1', baseURL: undefined });
    expect(config.model).toBe('claude-sonnet-5-5');
    expect(config.requestModel).toBe('anthropic.claude-sonnet-5-5');
    expect(config.modelSpec.prices.inputPerMTok).toBe(2);
  });

  it('prefers the aws_region input, and ignores an Anthropic key it does not need', () => {
    const config = parse(
      { use_bedrock: 'TRUE', aws_region: 'us-west-2', anthropic_api_key: 'sk-unused' },
      { AWS_REGION: 'eu-central-1' }
    );
    expect(config.provider).toMatchObject({ kind: 'bedrock', awsRegion: 'us-west-2' });
    expect(config.apiKey).toBe('');
  });

  it('maps Vertex models to their names, with project and region from inputs or the environment', () => {
    const fromInputs = parse({
      use_vertex: 'true',
      vertex_project_id: 'p1',
      vertex_region: 'global',
      model: 'claude-opus-4-0'
    });
    expect(fromInputs.provider).toEqual({
      kind: 'vertex',
      projectId: 'p1',
      region: 'global',
      accessToken: undefined,
      baseURL: undefined
    });
    expect(fromInputs.requestModel).toBe('claude-opus-4');
    const fromEnv = parse(
      { use_vertex: 'true' },
      { ANTHROPIC_VERTEX_PROJECT_ID: 'p2', CLOUD_ML_REGION: 'us-east5' }
    );
    expect(fromEnv.provider).toMatchObject({ projectId: 'p2', region: 'us-east5' });
  });

  it('refuses both providers at once, and a bad switch value', () => {
    expect(problemsOf({ use_bedrock: 'true', use_vertex: 'true' })).toEqual([
      'use_bedrock and use_vertex are both set: the model runs on one provider. Keep the one whose credentials this job has.'
    ]);
    expect(problemsOf({ use_bedrock: 'yes' })[0]).toBe(
      'use_bedrock: "yes" is not true or false. Write true (or True, TRUE) to turn it on, false (or False, ' +
        'FALSE) to turn it off, or leave it empty for the default (false).'
    );
  });

  it('names what Vertex misses, and what Bedrock misses', () => {
    expect(problemsOf({ use_vertex: 'true' })).toEqual([
      'use_vertex needs a Google Cloud project: set vertex_project_id (or ANTHROPIC_VERTEX_PROJECT_ID), and a region: ' +
        'set vertex_region (global, us-east5, europe-west1, ...; or CLOUD_ML_REGION).'
    ]);
    expect(problemsOf({ use_bedrock: 'true' })[0]).toMatch(
      /^use_bedrock needs an AWS region: set aws_region/
    );
  });

  it('refuses provider settings without their switch (a forgotten use_vertex would bill the Anthropic key)', () => {
    expect(
      problemsOf({ vertex_project_id: 'p', aws_region: 'us-east-1' }, { ANTHROPIC_API_KEY: 'k' })
    ).toEqual([
      'aws_region is set, but the provider is not bedrock: set provider to bedrock too, or drop aws_region.',
      'vertex_project_id is set, but the provider is not vertex: set provider to vertex too, or drop vertex_project_id.'
    ]);
  });

  it('names the flags on the command line', () => {
    expect(
      problemsOf({ use_vertex: 'true', vertex_region: 'global' }, {}, CLI_INPUT_NAMING as never)[0]
    ).toContain('set --vertex-project-id');
  });

  it('still needs the Anthropic key without a cloud provider, and says the clouds are an alternative', () => {
    expect(problemsOf({})[0]).toMatch(/^No Anthropic API key: .*use_bedrock.*use_vertex/);
  });
});

describe('model ids per provider', () => {
  it('refuses a catalogue model the provider does not serve, naming the ones it does', () => {
    const [problem] = problemsOf({
      use_vertex: 'true',
      vertex_project_id: 'p',
      vertex_region: 'global',
      model: 'claude-mythos-5-2'
    });
    expect(problem).toContain('claude-mythos-5-2 is not available on Google Vertex AI');
    expect(problem).toContain('claude-sonnet-5-5, claude-opus-5-5');
    const [bedrock] = problemsOf({ use_bedrock: 'true', aws_region: 'us-east-1', model: 'claude-opus-4-7' });
    expect(bedrock).toContain('claude-opus-4-7 is not available on Amazon Bedrock');
    expect(bedrock).toContain('an inference profile such as global.anthropic.');
  });

  it('passes provider ids through and prices them by the catalogue row they name', () => {
    const cases: ReadonlyArray<['bedrock' | 'vertex', string, string]> = [
      ['bedrock', 'us.anthropic.claude-opus-4-5-20251101-v1:0', 'claude-opus-4-5'],
      [
        'bedrock',
        'arn:aws:bedrock:us-east-1:123456789012:inference-profile/global.anthropic.claude-opus-5-5',
        'claude-opus-5-5'
      ],
      ['bedrock', 'anthropic.claude-sonnet-4-20250514-v1:0', 'claude-sonnet-4-0'],
      ['vertex', 'claude-sonnet-4-5@20250929', 'claude-sonnet-4-5'],
      ['vertex', 'claude-opus-4', 'claude-opus-4-0']
    ];
    for (const [provider, id, catalogueId] of cases) {
      expect(providerModel(provider, id)).toEqual({ requestModel: id, catalogueId });
    }
  });

  it('refuses an id that names no catalogue model unless the price overrides describe it', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5';
    const [problem] = problemsOf({ use_bedrock: 'true', aws_region: 'us-east-1', model: arn });
    expect(problem).toContain(`"${arn}": it is passed to Amazon Bedrock as given, but it names no model`);
    expect(problem).toContain(
      'describe this one with context_window, input_price_per_mtok and output_price_per_mtok'
    );
    const described = parse({
      use_bedrock: 'true',
      aws_region: 'us-east-1',
      model: arn,
      context_window: '1000000',
      input_price_per_mtok: '2',
      output_price_per_mtok: '10'
    });
    expect(described.requestModel).toBe(arn);
    expect(described.modelSpec.prices.outputPerMTok).toBe(10);
  });

  it('maps only to catalogue rows that exist', () => {
    const ids = new Set(MODEL_CATALOGUE.map((row) => row.id));
    for (const id of [...Object.keys(BEDROCK_MODEL_IDS), ...Object.keys(VERTEX_MODEL_IDS)])
      expect(ids).toContain(id);
  });
});
