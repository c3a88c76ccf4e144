import net from 'node:net';
import { errorFirstLine } from '../errors/error-message.js';

/**
 * How long one address may take to accept while another is left to try: a silent address (packets
 * dropped) would otherwise hold the connection for the system's TCP timeout, minutes. The last
 * address gets the system's own timeout.
 */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * A TCP connection to the first of `addresses` that accepts, tried in order, as a client with a
 * name's every address does: a host whose first address is down (an IPv6 address on an IPv4-only
 * runner, one dead server of a pool) is still reached. Every address here was checked already.
 */
export async function connectToFirst(addresses: readonly string[], port: number): Promise<net.Socket> {
  const failures: string[] = [];
  for (const [index, address] of addresses.entries()) {
    const timeout = index < addresses.length - 1 ? CONNECT_TIMEOUT_MS : undefined;
    try {
      return await connectOnce(address, port, timeout);
    } catch (error) {
      failures.push(`${address}: ${errorFirstLine(error)}`);
    }
  }
  throw new Error(`no address of the host accepted a connection (${failures.join('; ')})`);
}

function connectOnce(address: string, port: number, timeoutMs: number | undefined): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const fail = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', fail);
    if (timeoutMs !== undefined) {
      socket.setTimeout(timeoutMs, () => fail(new Error(`no answer within ${timeoutMs / 1000} s`)));
    }
    socket.once('connect', () => {
      socket.off('error', fail);
      socket.setTimeout(0);
      resolve(socket);
    });
  });
}
