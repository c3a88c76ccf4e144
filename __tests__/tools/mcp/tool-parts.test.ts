import { callAnswerText, MAX_MCP_RESULT_CHARS } from '../../../src/tools/mcp/call-result.js';
import { checkListedTool, MAX_SCHEMA_CHARS } from '../../../src/tools/mcp/listed-tool.js';
import { API_TOOL_NAME, mcpToolName, ToolNameTable } from '../../../src/tools/mcp/tool-names.js';

describe('MCP tool names fit the Messages API rule', () => {
  it('namespaces a tool as mcp__<server>__<tool>', () => {
    expect(mcpToolName('calc', 'add')).toBe('mcp__calc__add');
  });

  it('replaces the characters MCP allows and the API does not', () => {
    expect(mcpToolName('fs', 'files/read.text')).toBe('mcp__fs__files_read_text');
    expect(API_TOOL_NAME.test(mcpToolName('fs', 'ünïcode tool'))).toBe(true);
  });

  it('clips a long name to 64 characters, with a hash that keeps two long names apart', () => {
    const first = mcpToolName('server', `${'x'.repeat(80)}_one`);
    const second = mcpToolName('server', `${'x'.repeat(80)}_two`);
    expect(first).toHaveLength(64);
    expect(API_TOOL_NAME.test(first)).toBe(true);
    expect(first).not.toBe(second);
  });

  it('refuses a second tool that would get a name already given, saying which tool has it', () => {
    const table = new ToolNameTable();
    expect(table.claim('s', 'a.b')).toEqual({ ok: true, name: 'mcp__s__a_b' });
    expect(table.claim('s', 'a_b')).toEqual({
      ok: false,
      reason: "its name mcp__s__a_b is already taken by s's a.b"
    });
    expect(table.claim('a__b', 'c')).toEqual({ ok: true, name: 'mcp__a__b__c' });
    expect(table.claim('a', 'b__c')).toEqual({
      ok: false,
      reason: "its name mcp__a__b__c is already taken by a__b's c"
    });
  });
});

describe("a server's tool list is checked as data", () => {
  const schema = { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] };

  it('keeps a good tool, without its $schema dialect', () => {
    const checked = checkListedTool({
      name: 'search',
      description: 'Search.',
      inputSchema: { $schema: 'https://json-schema.org/draft/2020-12/schema', ...schema }
    });
    expect(checked).toEqual({
      ok: true,
      tool: { name: 'search', description: 'Search.', inputSchema: schema }
    });
  });

  const refused: ReadonlyArray<{ what: string; entry: unknown; reason: string }> = [
    { what: 'no input schema', entry: { name: 't' }, reason: 'not a tool' },
    {
      what: 'a schema that is not an object type',
      entry: { name: 't', inputSchema: { type: 'string' } },
      reason: 'not of type "object"'
    },
    {
      what: 'a property name the API refuses',
      entry: { name: 't', inputSchema: { type: 'object', properties: { 'has space': {} } } },
      reason: 'has a name the API refuses'
    },
    {
      what: 'a huge schema',
      entry: { name: 't', inputSchema: { type: 'object', description: 'x'.repeat(MAX_SCHEMA_CHARS) } },
      reason: 'characters (at most'
    },
    {
      what: 'a deeply nested schema',
      entry: {
        name: 't',
        inputSchema: Array.from({ length: 40 }).reduce<Record<string, unknown>>(
          (inner) => ({ type: 'object', items: inner }),
          {
            type: 'object'
          }
        )
      },
      reason: 'nested too deep'
    },
    {
      what: 'a control character in the name',
      entry: { name: 'a\u0007b', inputSchema: { type: 'object' } },
      reason: 'control characters'
    }
  ];

  it.each(refused)('does not offer a tool with $what', ({ entry, reason }) => {
    const checked = checkListedTool(entry);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toContain(reason);
  });

  it('clips a long description and gives a missing one a default', () => {
    const long = checkListedTool({
      name: 't',
      description: 'd'.repeat(10_000),
      inputSchema: { type: 'object' }
    });
    expect(long.ok && long.tool.description.length).toBe(4_000);
    const none = checkListedTool({ name: 't', inputSchema: { type: 'object' } });
    expect(none.ok && none.tool.description).toBe('The t tool of an MCP server.');
  });
});

describe("an MCP tool's answer as text for the model", () => {
  it('summarizes what is not text and keeps the text', () => {
    expect(
      callAnswerText({
        content: [
          { type: 'text', text: 'one' },
          { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
          { type: 'resource', resource: { uri: 'file:///a.txt', text: 'inside' } },
          {
            type: 'resource',
            resource: { uri: 'file:///a.bin', blob: 'AAAAAAAA', mimeType: 'application/zip' }
          },
          { type: 'resource_link', name: 'readme', uri: 'file:///README.md' }
        ]
      })
    ).toBe(
      [
        'one',
        '[audio content, audio/wav, 3 bytes: not shown]',
        '[resource file:///a.txt]\ninside',
        '[resource file:///a.bin, application/zip, 6 bytes: not shown]',
        '[resource link: readme file:///README.md]'
      ].join('\n')
    );
  });

  it('shows structured content when there is no text', () => {
    expect(callAnswerText({ content: [], structuredContent: { sum: 3 } })).toBe('{\n  "sum": 3\n}');
  });

  it('caps a huge answer, keeping its head and tail', () => {
    const answer = callAnswerText({ content: [{ type: 'text', text: `HEAD${'x'.repeat(200_000)}TAIL` }] });
    expect(answer.length).toBeLessThan(MAX_MCP_RESULT_CHARS + 100);
    expect(answer.startsWith('HEAD')).toBe(true);
    expect(answer.endsWith('TAIL')).toBe(true);
    expect(answer).toContain('characters omitted');
  });
});
