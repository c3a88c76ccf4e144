import { CLI_INPUT_NAMING } from '../../src/cli/args.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { parseActionConfig } from '../../src/config/github-inputs.js';
import { InputError } from '../../src/config/inputs.js';
import { MODEL_CATALOGUE } from '../../src/config/model-catalog.js';
import { resolveModelSpec, UnknownModelError, unknownModelMessage } from '../../src/config/models.js';
import { BEDROCK_MODEL_IDS } from '../../src/config/provider-models.js';
import { cliEnv, cliInProcess } from '../support/cli.js';
import { createTempRepo } from '../support/temp-repo.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';

/** What the action says for the workflow's inputs: the problems parseActionConfig reports. */
function actionProblems(inputs: Record<string, string>): readonly string[] {
  try {
    parseActionConfig(reader({ anthropic_api_key: 'sk-test', github_token: 'ghs_test', ...inputs }), {});
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

/** What `compact-agent run` prints on stderr for the same mistake (no model call is made). */
async function cliStderr(...flags: string[]): Promise<{ code: number; stderr: string }> {
  const repo = createTempRepo();
  try {
    return await cliInProcess(
      ['run', '--repo', repo.root, '--prompt', 'x', ...flags],
      cliEnv({ ANTHROPIC_API_KEY: 'k' })
    );
  } finally {
    repo.remove();
  }
}

/** `--context-window` back to `context_window`: the only way the two paths may differ. */
const asInputNames = (text: string) =>
  text.replace(/--([a-z0-9-]+)/g, (_, flag: string) => flag.replace(/-/g, '_'));

describe('an unknown model', () => {
  it('gets one text from the action inputs, the CLI and the catalogue lookup, differing only in how inputs are named', async () => {
    const fromAction = actionProblems({ model: 'gpt-9' });
    expect(fromAction).toEqual([unknownModelMessage('gpt-9')]);
    expect(() => resolveModelSpec('gpt-9')).toThrow(new UnknownModelError('gpt-9').message);
    expect(new UnknownModelError('gpt-9').message).toBe(fromAction[0]);

    const cli = await cliStderr('--model', 'gpt-9');
    expect(cli.code).toBe(EXIT.usage);
    const fromCli = unknownModelMessage('gpt-9', CLI_INPUT_NAMING.nameOf);
    expect(cli.stderr).toContain(fromCli);
    expect(asInputNames(fromCli)).toBe(fromAction[0]);
  });

  it('on a cloud, is the same text with what the cloud adds: the id passed as given, the ids it would price', () => {
    const arn = 'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/a1b2c3d4e5';
    const onBedrock = actionProblems({ use_bedrock: 'true', aws_region: 'us-east-1', model: arn });
    expect(onBedrock).toEqual([unknownModelMessage(arn, undefined, 'bedrock')]);
    const [text] = onBedrock;
    expect(text).toContain(`Unknown model "${arn}": it is passed to Amazon Bedrock as given`);
    expect(text).toContain('or an id that contains one (e.g. global.anthropic.claude-sonnet-5-5)');
    // The tail naming the price overrides is the first-party text's, word for word.
    const tail = (message: string) => message.slice(message.indexOf(', or describe this one with'));
    expect(tail(text!)).toBe(tail(unknownModelMessage(arn)));
    // Only current models Bedrock serves are offered there.
    const offered = /current: ([^)]*)\)/.exec(text!)![1]!.split(', ');
    expect(offered.length).toBeGreaterThan(0);
    for (const id of offered) expect(BEDROCK_MODEL_IDS[id]).toBeDefined();
  });

  it('lists the current models and every price override, named for where it is set', () => {
    const text = unknownModelMessage('gpt-9');
    for (const row of MODEL_CATALOGUE.filter((candidate) => candidate.status === 'current'))
      expect(text).toContain(row.id);
    expect(text).toContain('context_window, input_price_per_mtok and output_price_per_mtok');
    expect(text).toContain(
      'optionally cache_write_price_per_mtok, cache_write_1h_price_per_mtok and cache_read_price_per_mtok'
    );
    expect(unknownModelMessage('gpt-9', CLI_INPUT_NAMING.nameOf)).toContain(
      '--context-window, --input-price-per-mtok and --output-price-per-mtok (optionally ' +
        '--cache-write-price-per-mtok, --cache-write-1h-price-per-mtok and --cache-read-price-per-mtok;'
    );
  });
});
