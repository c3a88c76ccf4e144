/**
 * Run by the nested-repositories test as a non-root user (root lists any folder, the job's runner
 * user does not): takes the watch over argv[2], runs the shell command argv[4] there, sweeps into
 * argv[3], and prints what the sweep moved as JSON.
 */
import { execFileSync } from 'node:child_process';
import { watchNestedRepositories } from '../../src/git/nested-repositories.js';

const [workspace, quarantine, command] = process.argv.slice(2);
if (!workspace || !quarantine || !command)
  throw new Error('usage: sweep-as-user <workspace> <quarantine> <command>');
const watch = watchNestedRepositories(workspace, quarantine);
execFileSync('bash', ['-c', command], { cwd: workspace, stdio: 'ignore' });
process.stdout.write(JSON.stringify(watch.sweep()));
