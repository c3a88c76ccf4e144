// A small stdio MCP server for the tests, built on the official SDK's McpServer.
// Tools: add, fail (always throws), env_report (what it was started with), echo_env (one variable's
// value), spawn_child (leaves a long-lived child behind, as `npx` does), slow (waits, after writing
// a file in its folder), crash (exits mid-call), picture (an image and a text).
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import process from 'node:process';
import { setTimeout as delay } from 'node:timers/promises';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const server = new McpServer({ name: 'calc', version: '1.0.0' });
const text = (value) => ({ content: [{ type: 'text', text: value }] });

server.registerTool(
  'add',
  { description: 'Add two numbers.', inputSchema: { a: z.number(), b: z.number() } },
  async ({ a, b }) => text(String(a + b))
);

server.registerTool('fail', { description: 'Always fails.' }, async () => {
  throw new Error('the calculator is broken on purpose');
});

server.registerTool('env_report', { description: 'Reports its environment and folder.' }, async () =>
  text(
    JSON.stringify({
      pid: process.pid,
      cwd: process.cwd(),
      names: Object.keys(process.env).sort(),
      calcMode: process.env.CALC_MODE ?? null
    })
  )
);

server.registerTool(
  'echo_env',
  { description: 'Prints the value of one of its environment variables.', inputSchema: { name: z.string() } },
  async ({ name }) => text(process.env[name] ?? '(unset)')
);

server.registerTool('spawn_child', { description: 'Starts a child that outlives the call.' }, async () => {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  child.unref();
  return text(String(child.pid));
});

server.registerTool('slow', { description: 'Takes a minute.' }, async () => {
  writeFileSync('slow-started.txt', String(process.pid));
  await delay(60_000);
  return text('finished');
});

server.registerTool('crash', { description: 'Exits the server mid-call.' }, async () => {
  process.exit(1);
});

server.registerTool('picture', { description: 'Answers with an image and a text.' }, async () => ({
  content: [
    { type: 'image', data: Buffer.alloc(300).toString('base64'), mimeType: 'image/png' },
    { type: 'text', text: 'a blank picture' }
  ]
}));

await server.connect(new StdioServerTransport());
