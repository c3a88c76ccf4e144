import { lookup } from 'node:dns/promises';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import type { Duplex } from 'node:stream';
import { BlockedLog, type BlockedAttempt } from './blocked-log.js';
import { decideEgress, type Resolve } from './egress-decision.js';
import { connectToFirst } from './first-connection.js';
import type { HostRule } from './host-rules.js';

/** The input and the flag that allow a host: told in every refusal, so the reader knows what to change. */
export const ALLOW_HOSTS_HINT =
  'A maintainer can allow it with the `sandbox_allow_hosts` input of the action (CLI: --sandbox-allow-hosts host[:port]).';

/** Headers meant for the proxy (RFC 9110 §7.6.1 hop-by-hop, plus Proxy-*): never passed on. */
const HOP_HEADERS = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'proxy-authenticate',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade'
]);

/** One command's way out: a Unix socket whose refusals are charged to that command. */
export interface EgressChannel {
  readonly socketPath: string;
  /** Refusals while this channel was open. */
  blocked(): BlockedAttempt[];
  close(): Promise<void>;
}

/**
 * The box's only way out: an HTTP proxy on Unix sockets, run by the action outside the box. It
 * allows or refuses by host name, from the CONNECT target or the request's URL (Host header for
 * origin-form), and never looks inside TLS. Every refusal is a 403 and is recorded.
 */
export class EgressProxy {
  private readonly log = new BlockedLog();
  private readonly channels = new Set<http.Server>();
  private readonly sockets = new Set<Duplex>();
  private counter = 0;

  constructor(
    private readonly rules: readonly HostRule[],
    private readonly socketDir: string,
    private readonly resolve: Resolve = defaultResolve
  ) {}

  async openChannel(command: string): Promise<EgressChannel> {
    const socketPath = path.join(this.socketDir, `p${++this.counter}.sock`);
    const own = new BlockedLog();
    const server = http.createServer(
      (request, response) => void this.forward(request, response, command, own)
    );
    server.on(
      'connect',
      (request: http.IncomingMessage, socket: Duplex, head: Buffer) =>
        void this.tunnel(request, socket, head, command, own)
    );
    server.on('connection', (socket: net.Socket) => this.track(socket));
    server.on('clientError', (_error, socket) => socket.destroy());
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
    this.channels.add(server);
    return {
      socketPath,
      blocked: () => own.list(),
      close: () => this.closeServer(server)
    };
  }

  /** Every refusal of the run. */
  blockedAttempts(): BlockedAttempt[] {
    return this.log.list();
  }

  async close(): Promise<void> {
    await Promise.all([...this.channels].map((server) => this.closeServer(server)));
    for (const socket of this.sockets) socket.destroy();
  }

  /** Stops taking connections; the box that used them is gone, so the open ones are cut. */
  private closeServer(server: http.Server): Promise<void> {
    this.channels.delete(server);
    server.close();
    server.closeAllConnections();
    return Promise.resolve();
  }

  private track(socket: Duplex): void {
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }

  private refuse(
    host: string,
    port: number,
    reason: string,
    command: string,
    own: BlockedLog,
    hint = ALLOW_HOSTS_HINT
  ): string {
    this.log.record(host, port, command, reason);
    own.record(host, port, command, reason);
    return `compact-agent sandbox: ${host}:${port} refused (${reason}). ${hint}\n`;
  }

  private async tunnel(
    request: http.IncomingMessage,
    client: Duplex,
    head: Buffer,
    command: string,
    own: BlockedLog
  ): Promise<void> {
    this.track(client);
    const target = parseAuthority(request.url ?? '');
    if (!target) {
      client.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
      return;
    }
    const decision = await decideEgress(this.rules, target.host, target.port, this.resolve);
    if (!decision.allowed) {
      const body = this.refuse(target.host, target.port, decision.reason, command, own);
      client.end(refusal(body));
      return;
    }
    let upstream: net.Socket;
    try {
      upstream = await connectToFirst(decision.addresses, target.port);
    } catch {
      if (!client.destroyed) client.end('HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\n');
      return;
    }
    this.track(upstream);
    if (client.destroyed) {
      upstream.destroy();
      return;
    }
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
    client.once('close', () => upstream.destroy());
    upstream.once('close', () => client.destroy());
  }

  private async forward(
    request: http.IncomingMessage,
    response: http.ServerResponse,
    command: string,
    own: BlockedLog
  ): Promise<void> {
    const parsed = requestTarget(request);
    if ('mismatch' in parsed) {
      // Recorded like any refusal: the Host header is where the request would really have gone.
      const { mismatch } = parsed;
      const reason = `the Host header names ${mismatch.header}, not the URL's host ${mismatch.url}`;
      response.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
      const hint = 'Send the request to the URL of the host you mean, with its own Host header.';
      response.end(this.refuse(mismatch.host, mismatch.port, reason, command, own, hint));
      return;
    }
    if ('problem' in parsed) {
      response.writeHead(400, { 'content-type': 'text/plain', connection: 'close' });
      response.end(`compact-agent sandbox: ${parsed.problem}.\n`);
      return;
    }
    const { target } = parsed;
    const decision = await decideEgress(this.rules, target.host, target.port, this.resolve);
    if (!decision.allowed) {
      const body = this.refuse(target.host, target.port, decision.reason, command, own);
      response.writeHead(403, { 'content-type': 'text/plain', connection: 'close' });
      response.end(body);
      return;
    }
    const headers = Object.fromEntries(
      Object.entries(request.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()))
    );
    let connection: net.Socket;
    try {
      connection = await connectToFirst(decision.addresses, target.port);
    } catch {
      response.writeHead(502, { connection: 'close' });
      response.end();
      return;
    }
    this.track(connection);
    const upstream = http.request({
      createConnection: () => connection,
      port: target.port,
      method: request.method,
      path: target.path,
      headers: { ...headers, host: target.authority, connection: 'close' },
      agent: false
    });
    upstream.on('response', (answer) => {
      const kept = Object.fromEntries(
        Object.entries(answer.headers).filter(([name]) => !HOP_HEADERS.has(name.toLowerCase()))
      );
      response.writeHead(answer.statusCode ?? 502, { ...kept, connection: 'close' });
      answer.pipe(response);
    });
    upstream.on('error', () => {
      if (!response.headersSent) response.writeHead(502, { connection: 'close' });
      response.end();
    });
    request.pipe(upstream);
  }
}

function refusal(body: string): string {
  return (
    'HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`
  );
}

interface Authority {
  readonly host: string;
  readonly port: number;
}

/** `host:port` or `[v6]:port`, as a CONNECT target must be (RFC 9110 §9.3.6: authority-form). */
export function parseAuthority(text: string): Authority | undefined {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/\s@]+):(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  const host = match[1]!.startsWith('[') ? match[1]!.slice(1, -1) : match[1]!;
  return { host, port };
}

interface RequestTarget extends Authority {
  readonly authority: string;
  readonly path: string;
}

/** A Host header that names another host than the request's URL: where the request would go. */
interface HostMismatch {
  readonly host: string;
  readonly port: number;
  readonly header: string;
  readonly url: string;
}

type ParsedTarget =
  { readonly target: RequestTarget } | { readonly problem: string } | { readonly mismatch: HostMismatch };

const PLAIN_HTTP_ONLY =
  'the proxy takes http:// URLs, or CONNECT for https (set HTTPS_PROXY for https:// URLs)';

/**
 * The destination of a plain-HTTP request: the absolute URL a client sends to a proxy, or, for
 * origin-form, the Host header. A request whose Host header names another host than its URL is
 * refused (an allowed URL must not carry a request for another virtual host), and said so.
 */
function requestTarget(request: http.IncomingMessage): ParsedTarget {
  const raw = request.url ?? '';
  let url: URL;
  try {
    url = raw.startsWith('/') ? new URL(`http://${request.headers.host ?? ''}${raw}`) : new URL(raw);
  } catch {
    return { problem: `${PLAIN_HTTP_ONLY}; this request's target is not a URL` };
  }
  if (url.protocol !== 'http:') return { problem: `${PLAIN_HTTP_ONLY}; this one is ${url.protocol}//` };
  if (url.username !== '' || url.password !== '')
    return { problem: 'a user name or password in the URL is not forwarded; send it in a header' };
  const hostHeader = request.headers.host;
  if (hostHeader !== undefined && hostHeader.toLowerCase() !== url.host.toLowerCase()) {
    const named = parseHostHeader(hostHeader);
    return { mismatch: { ...named, header: hostHeader, url: url.host } };
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  return {
    target: {
      host,
      port: url.port === '' ? 80 : Number(url.port),
      authority: url.host,
      path: `${url.pathname}${url.search}`
    }
  };
}

/** The host and port a Host header names (port 80 when it names none; the text as is if unparsable). */
function parseHostHeader(value: string): { host: string; port: number } {
  try {
    const url = new URL(`http://${value}`);
    const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
    return { host, port: url.port === '' ? 80 : Number(url.port) };
  } catch {
    return { host: value.slice(0, 200), port: 80 };
  }
}

async function defaultResolve(host: string): Promise<readonly string[]> {
  const answers = await lookup(host, { all: true, verbatim: true });
  return answers.map((answer) => answer.address);
}
