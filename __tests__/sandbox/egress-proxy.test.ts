/** The proxy over its Unix socket, with real HTTP clients (node:http) and loopback listeners only. */
import http from 'node:http';
import net from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EgressProxy } from '../../src/sandbox/egress-proxy.js';
import { parseHostRule, type HostRule } from '../../src/sandbox/host-rules.js';
import { startListeners, type Listeners } from './box-support.js';

let dir: string;
let listener: Listeners;
let proxy: EgressProxy;

beforeEach(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'compact-agent-proxy-'));
  listener = await startListeners();
  const rules = [
    parseHostRule(`127.0.0.1:${listener.httpPort}`, true) as HostRule,
    parseHostRule('registry.test', false) as HostRule,
    // Named by the maintainer, so loopback is allowed: the tests' stand-in for a name with two addresses.
    parseHostRule(`mirror.test:${listener.httpPort}`, true) as HostRule,
    parseHostRule(`dead.test:${listener.httpPort}`, true) as HostRule
  ];
  // registry.test resolves to loopback: a default-list name must not lead there. mirror.test's first
  // address has nothing listening (the listener is bound to 127.0.0.1 only); dead.test has none.
  const addresses: Record<string, string[]> = {
    'registry.test': ['127.0.0.1'],
    'mirror.test': ['127.0.0.2', '127.0.0.1'],
    'dead.test': ['127.0.0.2', '127.0.0.3']
  };
  proxy = new EgressProxy(rules, dir, (host) => Promise.resolve(addresses[host] ?? []));
});
afterEach(async () => {
  await proxy.close();
  await listener.close();
  rmSync(dir, { recursive: true, force: true });
});

function viaProxy(
  socketPath: string,
  options: http.RequestOptions
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request({ socketPath, ...options }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });
}

function connectVia(socketPath: string, target: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath, () =>
      socket.write(`CONNECT ${target} HTTP/1.1\r\nHost: ${target}\r\n\r\n`)
    );
    let answer = '';
    socket.on('data', (data) => {
      answer += data.toString('utf8');
      if (answer.includes('\r\n\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0]!);
      }
    });
    socket.on('error', reject);
  });
}

it('forwards an allowed plain-HTTP request and a CONNECT, and records nothing', async () => {
  const channel = await proxy.openChannel('curl allowed');
  // As a proxy client sends it: the absolute URL, and its authority in Host.
  const answer = await viaProxy(channel.socketPath, {
    path: `http://127.0.0.1:${listener.httpPort}/ok`,
    headers: { host: `127.0.0.1:${listener.httpPort}` }
  });
  expect(answer).toEqual({ status: 200, body: 'listener got it\n' });
  expect(await connectVia(channel.socketPath, `127.0.0.1:${listener.httpPort}`)).toBe(
    'HTTP/1.1 200 Connection Established'
  );
  expect(channel.blocked()).toEqual([]);
  await channel.close();
});

it('refuses a host that is not allowed with 403, names the input, and records host, port, count and command', async () => {
  const channel = await proxy.openChannel('curl https://attacker.example');
  const refused = await viaProxy(channel.socketPath, {
    path: `http://127.0.0.1:${listener.tcpPort}/x`,
    headers: { host: `127.0.0.1:${listener.tcpPort}` }
  });
  expect(refused.status).toBe(403);
  expect(refused.body).toContain('sandbox_allow_hosts');
  expect(await connectVia(channel.socketPath, 'attacker.example:443')).toBe('HTTP/1.1 403 Forbidden');
  expect(await connectVia(channel.socketPath, 'attacker.example:443')).toBe('HTTP/1.1 403 Forbidden');
  expect(channel.blocked()).toEqual([
    {
      host: '127.0.0.1',
      port: listener.tcpPort,
      count: 1,
      firstCommand: 'curl https://attacker.example',
      reason: 'not on the allowed hosts'
    },
    {
      host: 'attacker.example',
      port: 443,
      count: 2,
      firstCommand: 'curl https://attacker.example',
      reason: 'not on the allowed hosts'
    }
  ]);
  expect(listener.hits).toEqual([]);
});

it('refuses a default-list name that resolves to loopback', async () => {
  const channel = await proxy.openChannel('npm install');
  expect(await connectVia(channel.socketPath, 'registry.test:443')).toBe('HTTP/1.1 403 Forbidden');
  expect(channel.blocked()[0]?.reason).toBe('an allowed name that resolves to an internal address');
});

it('refuses an allowed URL whose Host header names another host', async () => {
  const channel = await proxy.openChannel('curl -H Host:');
  const answer = await viaProxy(channel.socketPath, {
    path: `http://127.0.0.1:${listener.httpPort}/x`,
    headers: { host: 'internal.example' }
  });
  expect(answer.status).toBe(403);
  expect(answer.body).toContain(
    `internal.example:80 refused (the Host header names internal.example, not the URL's host 127.0.0.1:${listener.httpPort}). Send the request to the URL of the host you mean, with its own Host header.`
  );
  // Listed with the other refusals (outputs, report), under the host the request would have reached.
  expect(channel.blocked().map((entry) => [entry.host, entry.port])).toEqual([['internal.example', 80]]);
  expect(listener.hits).toEqual([]);
});

it('says what it takes when a request is not plain http (an https:// URL sent without CONNECT)', async () => {
  const channel = await proxy.openChannel('curl --proxy-insecure');
  const answer = await viaProxy(channel.socketPath, {
    path: `https://127.0.0.1:${listener.httpPort}/x`,
    headers: { host: `127.0.0.1:${listener.httpPort}` }
  });
  expect(answer.status).toBe(400);
  expect(answer.body).toBe(
    'compact-agent sandbox: the proxy takes http:// URLs, or CONNECT for https (set HTTPS_PROXY for https:// URLs); this one is https://.\n'
  );
  expect(channel.blocked()).toEqual([]);
  expect(listener.hits).toEqual([]);
});

it("tries a name's next address when the first refuses the connection, for plain HTTP and CONNECT", async () => {
  const channel = await proxy.openChannel('npm install --registry http://mirror.test');
  const answer = await viaProxy(channel.socketPath, {
    path: `http://mirror.test:${listener.httpPort}/second`,
    headers: { host: `mirror.test:${listener.httpPort}` }
  });
  expect(answer).toEqual({ status: 200, body: 'listener got it\n' });
  expect(listener.hits).toEqual(['http GET /second']);
  expect(await connectVia(channel.socketPath, `mirror.test:${listener.httpPort}`)).toBe(
    'HTTP/1.1 200 Connection Established'
  );
  expect(channel.blocked()).toEqual([]);
});

it('answers 502 when no address of an allowed name accepts', async () => {
  const channel = await proxy.openChannel('curl http://dead.test');
  const answer = await viaProxy(channel.socketPath, {
    path: `http://dead.test:${listener.httpPort}/x`,
    headers: { host: `dead.test:${listener.httpPort}` }
  });
  expect(answer.status).toBe(502);
  expect(await connectVia(channel.socketPath, `dead.test:${listener.httpPort}`)).toBe(
    'HTTP/1.1 502 Bad Gateway'
  );
  // Allowed, just down: not a refusal.
  expect(channel.blocked()).toEqual([]);
});
