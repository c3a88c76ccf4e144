// A stdio MCP server whose tool list is awkward for the Messages API, on the SDK's low-level Server
// (McpServer would check its own tools): a name with `/` and `.`, another that becomes the same
// name, a name of 100 characters, and a schema with a property name the API refuses.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const object = { type: 'object', properties: {} };
const tools = [
  { name: 'files/read.text', description: 'Reads.', inputSchema: object },
  { name: 'files_read_text', description: 'Reads too.', inputSchema: object },
  { name: 'x'.repeat(100), description: 'A long name.', inputSchema: object },
  {
    name: 'bad_schema',
    description: 'A property name with a space.',
    inputSchema: { type: 'object', properties: { 'has space': { type: 'string' } } }
  }
];

const server = new Server({ name: 'odd', version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools }));
server.setRequestHandler(CallToolRequestSchema, async (request) => ({
  content: [{ type: 'text', text: `called ${request.params.name}` }]
}));
await server.connect(new StdioServerTransport());
