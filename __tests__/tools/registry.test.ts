import { z } from 'zod';
import { createDefaultTools } from '../../src/tools/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { defineTool } from '../../src/tools/tool.js';
import { describeToolCall } from '../../src/tools/describe-call.js';
import { createTempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';

describe('ToolRegistry', () => {
  const repo = createTempRepo();
  afterAll(() => repo.remove());

  it('describes every tool with an object JSON schema and keeps definitions identical across calls', () => {
    const registry = createDefaultTools();
    expect(registry.names()).toEqual([
      'bash',
      'read_file',
      'write_file',
      'edit_file',
      'glob',
      'grep',
      'compact'
    ]);
    for (const definition of registry.definitions) {
      expect(definition.input_schema.type).toBe('object');
      expect(definition.input_schema).not.toHaveProperty('$schema');
      expect(definition.description?.length).toBeGreaterThan(20);
    }
    expect(JSON.stringify(createDefaultTools().definitions)).toBe(JSON.stringify(registry.definitions));
  });

  it('answers an unknown tool with an error listing the available ones', async () => {
    const result = await createDefaultTools().execute(
      { id: 't', name: 'rm_rf', input: {} },
      toolContext(repo.root)
    );
    expect(result.isError).toBe(true);
    expect(result.content).toBe(
      'Unknown tool "rm_rf". Available tools: bash, read_file, write_file, edit_file, glob, grep, compact.'
    );
  });

  it('turns a thrown error into an error result instead of ending the run', async () => {
    const exploding = defineTool({
      name: 'explode',
      description: 'always fails',
      inputSchema: z.object({}),
      async run() {
        throw new RangeError('boom');
      }
    });
    const result = await new ToolRegistry([exploding]).execute(
      { id: 't', name: 'explode', input: {} },
      toolContext(repo.root)
    );
    expect(result).toMatchObject({ isError: true, content: 'RangeError: boom' });
  });

  it('lets the compact tool request a compaction with its focus', async () => {
    const context = toolContext(repo.root);
    const result = await createDefaultTools().execute(
      { id: 't', name: 'compact', input: { focus: 'the API design' } },
      context
    );
    expect(result.isError).toBe(false);
    expect(context.compactionRequests).toEqual(['the API design']);
  });
});

describe('describeToolCall', () => {
  it('names the tool and its key input, shortened to one line', () => {
    expect(describeToolCall('read_file', { path: 'src/app.ts' })).toBe('read_file src/app.ts');
    expect(describeToolCall('bash', { command: 'npm   test\n-- --watch' })).toBe('bash npm test -- --watch');
    expect(describeToolCall('bash', { command: 'x'.repeat(200) }, 10)).toBe(`bash ${'x'.repeat(9)}…`);
    expect(describeToolCall('compact', {})).toBe('compact');
  });
});
