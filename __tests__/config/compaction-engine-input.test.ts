import { InputError, parseAgentConfig } from '../../src/config/inputs.js';
import { parseCompactionEngine } from '../../src/config/compaction-engine-input.js';

const reader = (inputs: Record<string, string>) => (name: string) => inputs[name] ?? '';
const env = { ANTHROPIC_API_KEY: 'sk-test' };

function problemsOf(inputs: Record<string, string>, environment: NodeJS.ProcessEnv = env): readonly string[] {
  try {
    parseAgentConfig(reader(inputs), environment);
  } catch (error) {
    if (error instanceof InputError) return error.problems;
    throw error;
  }
  throw new Error('expected an InputError');
}

describe('compaction_engine', () => {
  it('defaults to client and reads client, api and auto in any case', () => {
    expect(parseAgentConfig(reader({}), env).compactionEngine).toBe('client');
    expect(parseAgentConfig(reader({ compaction_engine: ' API ' }), env).compactionEngine).toBe('api');
    expect(parseAgentConfig(reader({ compaction_engine: 'auto' }), env).compactionEngine).toBe('auto');
  });

  it('names the input, the value and the choices for a bad value', () => {
    const problems: string[] = [];
    expect(parseCompactionEngine('server', '--compaction-engine', 'client', problems)).toBe('client');
    expect(problems).toEqual([
      '--compaction-engine must be client (our summarizer), api (the API\'s on-demand compaction) or auto (the API\'s where the model supports it), got "server".'
    ]);
    expect(problemsOf({ compaction_engine: 'both' })[0]).toContain('compaction_engine must be client');
  });

  it('refuses api on a cloud provider and says what to use instead', () => {
    const problems = problemsOf(
      { compaction_engine: 'api', use_bedrock: 'true', aws_region: 'us-east-1' },
      {}
    );
    expect(problems).toEqual([
      "compaction_engine is api, but the API's on-demand compaction is used only on the Claude API (this run uses bedrock): set it to auto or client."
    ]);
    expect(
      parseAgentConfig(
        reader({ compaction_engine: 'auto', use_bedrock: 'true', aws_region: 'us-east-1' }),
        {}
      ).compactionEngine
    ).toBe('auto');
  });
});
