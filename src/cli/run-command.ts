import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { newRunId } from '../agent/run-id.js';
import { runSession, type SessionOutcome } from '../agent/session.js';
import { InputError, parseAgentConfig } from '../config/inputs.js';
import { cliInputReader } from './args.js';
import { progressPrinter } from './progress.js';

export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly env: NodeJS.ProcessEnv;
  readonly signal?: AbortSignal;
}

/** `compact-agent run`: returns the process exit code (0 success, 1 the run failed, 2 bad input). */
export async function runCommand(values: ReadonlyMap<string, string>, io: CliIo): Promise<number> {
  const repoDir = path.resolve(values.get('repo') ?? '.');
  let task: string;
  let config;
  try {
    task = await readTask(values);
    config = parseAgentConfig(cliInputReader(values), io.env);
  } catch (error) {
    if (error instanceof InputError || error instanceof TaskError) {
      io.stderr(error.message);
      return 2;
    }
    throw error;
  }
  const outcome = await runSession({
    config,
    task,
    repoDir,
    transcriptsDir: path.resolve(values.get('transcripts') ?? path.join(repoDir, '.transcripts')),
    runId: newRunId(),
    env: io.env,
    onProgress: progressPrinter(io.stderr),
    ...(io.signal ? { signal: io.signal } : {})
  });
  io.stdout(formatOutcome(outcome));
  return outcome.result.stopReason === 'success' ? 0 : 1;
}

class TaskError extends Error {}

async function readTask(values: ReadonlyMap<string, string>): Promise<string> {
  const file = values.get('prompt-file');
  const inline = values.get('prompt')?.trim();
  if (file && inline) throw new TaskError('Give the task with --prompt or --prompt-file, not both.');
  if (file) {
    const text = await readFile(file, 'utf8').catch(() => {
      throw new TaskError(`Cannot read the prompt file ${file}.`);
    });
    if (text.trim() === '') throw new TaskError(`The prompt file ${file} is empty.`);
    return text.trim();
  }
  if (!inline) throw new TaskError('No task: pass --prompt "what to do" or --prompt-file FILE.');
  return inline;
}

export function formatOutcome({ result, transcriptPath }: SessionOutcome): string {
  const usage = result.usage;
  return [
    '',
    result.summary || '(no summary)',
    '',
    `stop reason: ${result.stopReason}${result.error ? ` (${result.error})` : ''}`,
    `turns: ${result.turns}, duration: ${(result.durationMs / 1000).toFixed(1)} s`,
    `tokens: input ${usage.input}, cache write ${usage.cacheWrite}, cache read ${usage.cacheRead}, output ${usage.output}`,
    `cost: $${result.costUsd.toFixed(4)}`,
    `transcript: ${transcriptPath}`,
    ''
  ].join('\n');
}
