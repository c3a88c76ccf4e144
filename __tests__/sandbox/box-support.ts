import { spawnSync } from 'node:child_process';
import dgram from 'node:dgram';
import http from 'node:http';
import net from 'node:net';
import { closeLoopback, listenOnLoopback } from '../../test-support/loopback.js';

/**
 * Whether bubblewrap can build a box here. Tests that need it skip with this reason only outside CI:
 * CI runs as root on Linux with bubblewrap installed by .ci/run, so there a missing box fails.
 */
export function boxUnavailableReason(): string | undefined {
  if (process.platform !== 'linux') return `the box needs Linux (this is ${process.platform})`;
  const probe = spawnSync(
    'bwrap',
    ['--unshare-net', '--unshare-pid', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'],
    { encoding: 'utf8' }
  );
  if (probe.error) return `bwrap cannot run: ${probe.error.message} (apt-get install bubblewrap)`;
  if (probe.status !== 0) return `bwrap cannot build a box: ${probe.stderr.trim()}`;
  return undefined;
}

/** `describe`, or a skip that says why; in CI a missing box is a failure, never a skip. */
export function describeWithBox(name: string, body: () => void): void {
  const reason = boxUnavailableReason();
  if (reason === undefined) {
    describe(name, body);
  } else if (process.env.CI === 'true' || process.env.COMPACT_AGENT_SANDBOX_TESTS === 'required') {
    describe(name, () => {
      test('the box can be built (CI runs as root with bubblewrap)', () => {
        throw new Error(`The sandbox tests cannot run in CI: ${reason}`);
      });
    });
  } else {
    describe.skip(`${name} (skipped: ${reason})`, body);
  }
}

/** Listeners on 127.0.0.1 that record everything that reaches them: HTTP, raw TCP, UDP. */
export interface Listeners {
  readonly httpPort: number;
  readonly tcpPort: number;
  readonly udpPort: number;
  readonly hits: string[];
  close(): Promise<void>;
}

export async function startListeners(): Promise<Listeners> {
  const hits: string[] = [];
  const web = http.createServer((request, response) => {
    hits.push(`http ${request.method} ${request.url}`);
    response.end('listener got it\n');
  });
  const tcp = net.createServer((socket) => {
    hits.push('tcp connection');
    socket.on('data', (data) => hits.push(`tcp ${data.toString('utf8').trim()}`));
    socket.on('error', () => undefined);
  });
  const udp = dgram.createSocket('udp4');
  udp.on('message', (message) => hits.push(`udp ${message.toString('utf8')}`));
  const httpAddress = await listenOnLoopback(web, undefined);
  const tcpPort = await new Promise<number>((resolve) =>
    tcp.listen(0, '127.0.0.1', () => resolve((tcp.address() as net.AddressInfo).port))
  );
  const udpPort = await new Promise<number>((resolve) =>
    udp.bind(0, '127.0.0.1', () => resolve(udp.address().port))
  );
  return {
    httpPort: httpAddress.port,
    tcpPort,
    udpPort,
    hits,
    close: async () => {
      await closeLoopback(web);
      await new Promise<void>((resolve) => tcp.close(() => resolve()));
      await new Promise<void>((resolve) => udp.close(() => resolve()));
    }
  };
}
