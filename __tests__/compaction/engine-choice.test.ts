import {
  chooseCompactionEngine,
  type CompactionCapabilityLookup
} from '../../src/compaction/engine-choice.js';

const lookup = (answer: boolean | Error): CompactionCapabilityLookup & { asked: string[] } => {
  const asked: string[] = [];
  return {
    asked,
    async supportsOnDemandCompaction(model) {
      asked.push(model);
      if (answer instanceof Error) throw answer;
      return answer;
    }
  };
};

describe('chooseCompactionEngine', () => {
  it('takes client and api as given, without asking the Models API', async () => {
    const models = lookup(true);
    expect((await chooseCompactionEngine(undefined, 'anthropic', 'claude-sonnet-5-5', models)).engine).toBe(
      'client'
    );
    expect((await chooseCompactionEngine('client', 'anthropic', 'claude-sonnet-5-5', models)).engine).toBe(
      'client'
    );
    expect((await chooseCompactionEngine('api', 'anthropic', 'claude-sonnet-5-5', models)).engine).toBe(
      'api'
    );
    expect(models.asked).toEqual([]);
  });

  it('auto: the API where the Models API reports compaction, our summarizer where it does not or fails', async () => {
    const yes = lookup(true);
    expect(await chooseCompactionEngine('auto', 'anthropic', 'claude-sonnet-5-5', yes)).toEqual({
      engine: 'api',
      why: 'compaction_engine auto: the Models API reports compaction for claude-sonnet-5-5'
    });
    expect(yes.asked).toEqual(['claude-sonnet-5-5']);
    expect(
      (await chooseCompactionEngine('auto', 'anthropic', 'claude-haiku-4-5', lookup(false))).engine
    ).toBe('client');
    const failed = await chooseCompactionEngine(
      'auto',
      'anthropic',
      'claude-sonnet-5-5',
      lookup(new Error('503'))
    );
    expect(failed.engine).toBe('client');
    expect(failed.why).toContain('did not answer (503)');
  });

  it('auto: our summarizer on Bedrock and Vertex, without asking', async () => {
    const models = lookup(true);
    expect((await chooseCompactionEngine('auto', 'bedrock', 'claude-sonnet-5-5', models)).engine).toBe(
      'client'
    );
    expect((await chooseCompactionEngine('auto', 'vertex', 'claude-sonnet-5-5', models)).engine).toBe(
      'client'
    );
    expect(models.asked).toEqual([]);
  });
});
