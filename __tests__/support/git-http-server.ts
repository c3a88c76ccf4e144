import { spawn } from 'node:child_process';
import http from 'node:http';

export interface AuthenticatedGitServer {
  /** `http://127.0.0.1:<port>`; a repository is `${url}/<folder name under projectRoot>`. */
  readonly url: string;
  /** Every request, and whether it carried the expected Basic credential. */
  readonly attempts: Array<{ method: string; path: string; service: string; authorized: boolean }>;
  close(): Promise<void>;
}

/**
 * Smart HTTP over `git http-backend`, answering 401 unless the request carries
 * `Authorization: Basic base64(x-access-token:<token>)`, as GitHub does for a checkout's header.
 * `readTokens` may fetch but not push (a token with contents: read, as the workflow's own can be).
 */
export function startAuthenticatedGitServer(
  projectRoot: string,
  token: string,
  readTokens: readonly string[] = []
): Promise<AuthenticatedGitServer> {
  const basic = (secret: string) => Buffer.from(`x-access-token:${secret}`).toString('base64');
  const expected = basic(token);
  const readOnly = new Set(readTokens.map(basic));
  const attempts: AuthenticatedGitServer['attempts'] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const auth = /^basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
      const service = url.searchParams.get('service') ?? url.pathname.split('/').at(-1) ?? '';
      const authorized =
        auth?.[1] === expected || (service === 'git-upload-pack' && readOnly.has(auth?.[1] ?? ''));
      attempts.push({ method: req.method ?? '', path: url.pathname, service, authorized });
      if (!authorized) {
        res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="GitHub"' });
        res.end('Unauthorized');
        return;
      }
      const body = Buffer.concat(chunks);
      const contentEncoding = req.headers['content-encoding'];
      const gitProtocol = req.headers['git-protocol'];
      const backend = spawn('git', ['http-backend'], {
        env: {
          PATH: process.env.PATH,
          GIT_PROJECT_ROOT: projectRoot,
          GIT_HTTP_EXPORT_ALL: '1',
          PATH_INFO: url.pathname,
          QUERY_STRING: url.search.slice(1),
          REQUEST_METHOD: req.method ?? 'GET',
          CONTENT_TYPE: req.headers['content-type'] ?? '',
          CONTENT_LENGTH: String(body.length),
          REMOTE_USER: 'x-access-token',
          REMOTE_ADDR: '127.0.0.1',
          ...(typeof contentEncoding === 'string' ? { HTTP_CONTENT_ENCODING: contentEncoding } : {}),
          ...(typeof gitProtocol === 'string' ? { GIT_PROTOCOL: gitProtocol } : {})
        },
        stdio: ['pipe', 'pipe', 'ignore']
      });
      const out: Buffer[] = [];
      backend.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      // http-backend may answer and exit without reading the body (a GET's empty one, a refusal):
      // the write then fails with EPIPE, and what it wrote on stdout is still the answer to send.
      backend.stdin.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code !== 'EPIPE') throw error;
      });
      backend.stdin.end(body);
      backend.on('close', () => {
        const all = Buffer.concat(out);
        const split = all.indexOf('\r\n\r\n');
        const headers: Record<string, string> = {};
        let status = 200;
        for (const line of all.subarray(0, Math.max(split, 0)).toString('latin1').split('\r\n')) {
          const colon = line.indexOf(':');
          if (colon < 0) continue;
          const name = line.slice(0, colon).trim();
          const value = line.slice(colon + 1).trim();
          if (name.toLowerCase() === 'status') status = Number.parseInt(value, 10);
          else headers[name] = value;
        }
        res.writeHead(status, headers);
        res.end(split < 0 ? all : all.subarray(split + 4));
      });
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address() as { port: number };
      resolve({
        url: `http://127.0.0.1:${address.port}`,
        attempts,
        close: () => new Promise((done) => server.close(() => done()))
      });
    })
  );
}
