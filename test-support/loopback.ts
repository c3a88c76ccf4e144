import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Starts a fake on 127.0.0.1 (a random port unless one is given); only loopback is ever used. */
export async function listenOnLoopback(server: Server, port: number | undefined): Promise<AddressInfo> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port ?? 0, '127.0.0.1', () => resolve());
  });
  return server.address() as AddressInfo;
}

/** Stops a fake; keep-alive sockets (clients pool them) would otherwise hold close() open forever. */
export async function closeLoopback(server: Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeAllConnections();
  await closed;
}

/** Request headers as one string per name (repeated headers joined), as the fakes record them. */
export function flattenHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return flat;
}
