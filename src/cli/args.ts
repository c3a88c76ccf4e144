import { parseArgs } from 'node:util';
import type { InputReader } from '../config/inputs.js';

export const CLI_USAGE = `Usage:
  compact-agent run --repo DIR --prompt "TASK" [options]
  compact-agent transcript PATH [--json] [--html report.html]
  compact-agent transcript verify PATH [--head HASH]

Runs the agent loop on a local folder. The API key comes from ANTHROPIC_API_KEY; ANTHROPIC_BASE_URL
points it at a gateway or a fake server.

transcript: PATH is a run folder, a transcript.jsonl, a .transcripts folder (its newest run) or the
downloaded artifact zip. It prints the task, stop reason, turns, tokens and cost, the compactions, the
tools used and the files changed; --json prints the same as JSON; --html writes a self-contained report.
transcript verify: checks the transcript's hash chain, and with --head (the report's transcript head)
that nothing was cut from its end; exit 0 when intact, 1 naming the first bad line.

Options of run:
  --repo DIR                 the repository to work in (default: current folder)
  --prompt TEXT              the task
  --prompt-file FILE         read the task from a file instead
  --transcripts DIR          where run folders go (default: <repo>/.transcripts)
  --model NAME               model (default claude-sonnet-5-5)
  --max-turns N              stop after N model turns (default 200)
  --timeout-minutes N        stop after N minutes (default 60)
  --max-budget-usd N         stop once the run has cost N USD (default 10)
  --max-output-tokens N      max_tokens of each turn (default 16384)
  --context-window N, --input-price-per-mtok N, --output-price-per-mtok N,
  --cache-write-price-per-mtok N, --cache-read-price-per-mtok N
                             override the model table (needed for unknown models)
  --bash-timeout-seconds N   default timeout of a bash command (default 120)
  --bash-env-passthrough A,B extra environment variables the bash tool may see
  --api-max-retries N        retries of a failed model request (default 4)
  --api-stall-timeout-seconds N  drop and retry a response stream silent this long (default 120)
  --compaction-threshold-tokens N, --micro-keep-recent N, --micro-clear-at-least N,
  --micro-preserve-tools A,B, --compaction-keep-tail N, --restore-recent-files N,
  --max-compactions N        compaction settings (see the README)
  -h, --help                 show this help`;

const VALUE_OPTIONS = [
  'repo',
  'prompt',
  'prompt-file',
  'transcripts',
  'model',
  'max-turns',
  'timeout-minutes',
  'max-budget-usd',
  'max-output-tokens',
  'context-window',
  'input-price-per-mtok',
  'output-price-per-mtok',
  'cache-write-price-per-mtok',
  'cache-read-price-per-mtok',
  'bash-timeout-seconds',
  'bash-env-passthrough',
  'api-max-retries',
  'api-stall-timeout-seconds',
  'compaction-threshold-tokens',
  'micro-keep-recent',
  'micro-clear-at-least',
  'micro-preserve-tools',
  'compaction-keep-tail',
  'restore-recent-files',
  'max-compactions',
  'html',
  'head'
] as const;

export interface CliArguments {
  readonly command: string | undefined;
  /** Positional arguments after the command (the transcript's path). */
  readonly positionals: readonly string[];
  readonly help: boolean;
  readonly json: boolean;
  readonly values: ReadonlyMap<string, string>;
}

export function parseCliArguments(argv: readonly string[]): CliArguments {
  const options = Object.fromEntries(VALUE_OPTIONS.map((name) => [name, { type: 'string' as const }]));
  const parsed = parseArgs({
    args: [...argv],
    options: { ...options, help: { type: 'boolean', short: 'h' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true
  });
  const values = new Map<string, string>();
  for (const [name, value] of Object.entries(parsed.values)) {
    if (typeof value === 'string') values.set(name, value);
  }
  return {
    command: parsed.positionals[0],
    positionals: parsed.positionals.slice(1),
    help: parsed.values.help === true,
    json: parsed.values.json === true,
    values
  };
}

/** Lets the CLI feed the same parser as the action: `max_turns` is read from `--max-turns`. */
export function cliInputReader(values: ReadonlyMap<string, string>): InputReader {
  return (name) => values.get(name.replace(/_/g, '-')) ?? '';
}
