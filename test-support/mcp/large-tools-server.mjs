// A stdio MCP server with many large tools, for the cap on the tools' definitions: `--tools N`
// tools named tool_00, tool_01, ..., each with a description of `--description-chars M` characters
// and a schema of three properties. With PID_FILE set it writes its process id there at start.
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const { values } = parseArgs({
  options: {
    tools: { type: 'string', default: '60' },
    'description-chars': { type: 'string', default: '1000' }
  }
});
const toolCount = Number(values.tools);
const descriptionChars = Number(values['description-chars']);

const tools = Array.from({ length: toolCount }, (_, index) => {
  const name = `tool_${String(index).padStart(2, '0')}`;
  const sentence = `${name} looks up one record of the inventory by its key and returns it as JSON. `;
  return {
    name,
    description: sentence.repeat(Math.ceil(descriptionChars / sentence.length)).slice(0, descriptionChars),
    inputSchema: {
      type: 'object',
      properties: {
        key: { type: 'string', description: 'The record key.' },
        fields: { type: 'array', items: { type: 'string' }, description: 'The fields to return.' },
        limit: { type: 'integer', minimum: 1, maximum: 100 }
      },
      required: ['key']
    }
  };
});

if (process.env.PID_FILE) writeFileSync(process.env.PID_FILE, String(process.pid));
const server = new Server({ name: 'large', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `looked up with ${request.params.name}` }]
}));
await server.connect(new StdioServerTransport());
