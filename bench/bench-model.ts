import {
  lastUserText,
  reply,
  text,
  toolResultText,
  toolUse,
  type ParsedRequest,
  type Script,
  type ScriptedReply,
  unseenToolExchanges
} from '../test-support/fake-anthropic/index.js';
import type { WorkloadPlan } from './workload.js';

/** The task of every benchmark run: the retention probe looks for it verbatim. */
export const BENCH_TASK = [
  'Review this code base for robustness: read the request and streaming code, note what each module does,',
  'add a one-line review note at the top of each file you have checked, and keep your scratch probes passing.',
  'Work through it file by file; do not stop early.'
].join(' ');

/** Marks a summary request: ours appends this block; the reference design sends its own fresh prompt. */
const SUMMARY_MARKERS = ['<compaction-request>', 'Summarize this conversation for continuity'];

export function isSummaryRequest(request: ParsedRequest): boolean {
  const last = lastUserText(request);
  return SUMMARY_MARKERS.some((marker) => last.includes(marker));
}

/** What each agent request held of what must survive a compaction. */
export interface RetentionProbe {
  /** The agent turn the request asked for (0-based). */
  readonly turn: number;
  readonly task: boolean;
  /** Files changed so far (edit_file, write_file), and how many of them the context names. */
  readonly filesChanged: number;
  readonly filesFound: number;
  /** The latest command that failed, and whether the context holds it. */
  readonly latestFailure: string | undefined;
  readonly failureFound: boolean;
}

export interface BenchScript extends Script {
  readonly probes: RetentionProbe[];
  /** Agent turns answered so far. */
  readonly agentTurns: () => number;
}

/**
 * The model of a benchmark run: it replays the planned turns, one per agent request, and ends with a
 * text answer after `turns` turns. It answers summary requests with a deliberately plain summary that
 * names neither the files changed nor the failed commands: the retention probe then measures what the
 * compaction code keeps, not how good a summary the model writes. Each agent request is probed.
 */
export function benchScript(plan: WorkloadPlan, turns: number): BenchScript {
  let step = 0;
  const probes: RetentionProbe[] = [];
  const seen = new Set<string>();
  const changed = new Set<string>();
  let latestFailure: string | undefined;

  /** Learns what the tools did from results not seen before (their calls are in the message before). */
  const observe = (request: ParsedRequest) => {
    for (const { call, result } of unseenToolExchanges(request, seen)) {
      const input = call.input as Record<string, unknown>;
      const failed = result.is_error === true || /^exit code: [1-9]/.test(toolResultText(result));
      if (
        (call.name === 'edit_file' || call.name === 'write_file') &&
        !failed &&
        typeof input.path === 'string'
      )
        changed.add(input.path);
      if (call.name === 'bash' && failed && typeof input.command === 'string') latestFailure = input.command;
    }
  };

  const probe = (request: ParsedRequest) => {
    const context = JSON.stringify([request.system, request.messages]);
    const quoted = (value: string) => context.includes(JSON.stringify(value).slice(1, -1));
    const files = [...changed];
    probes.push({
      turn: step,
      task: quoted(BENCH_TASK),
      filesChanged: files.length,
      filesFound: files.filter(quoted).length,
      latestFailure,
      failureFound: latestFailure === undefined || quoted(latestFailure)
    });
  };

  const agentTurn = (request: ParsedRequest): ScriptedReply => {
    observe(request);
    probe(request);
    if (step >= turns - 1)
      return reply(text(`Done after ${turns} turns: reviewed the files I read and noted it in each.`));
    const planned = plan.turn(step);
    return reply(text(planned.text), ...planned.calls.map((call) => toolUse(call.name, call.input)));
  };

  const summaryTurn = (): ScriptedReply =>
    reply(
      text(
        [
          '## Task and intent',
          'Review the code base for robustness, file by file, and leave a review note at the top of each checked file.',
          '## Decisions',
          '- Work through the SDK sources first, then the YAML and glob libraries.',
          '- Read files whole when they are short, in windows when they are long.',
          '## Files and code',
          '- The SDK wraps HTTP requests in a client with retries, streaming and typed resources.',
          '- js-yaml has a loader and a dumper; fast-glob has providers, readers and pattern utilities.',
          '## Errors and fixes',
          '- Some checks failed along the way and were fixed.',
          '## Current state',
          `Reviewing; ${step} turns done.`,
          '## Pending work',
          '- Continue the review with the files not read yet.',
          '## Next step',
          'Read the next file of the working set.'
        ].join('\n')
      )
    );

  const script: Script = (request) => {
    if (isSummaryRequest(request)) return summaryTurn();
    const answer = agentTurn(request);
    step++;
    return answer;
  };
  return Object.assign(script, { probes, agentTurns: () => step });
}
