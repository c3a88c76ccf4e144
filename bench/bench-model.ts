import {
  lastUserText,
  reply,
  text,
  thinking,
  toolResultText,
  toolUse,
  type ParsedRequest,
  type Script,
  type ScriptedReply,
  unseenToolExchanges
} from '../test-support/fake-anthropic/index.js';
import { holdsFact, TASK_CONSTRAINTS, type NeedRecord, type NeedSchedule } from './needs.js';
import { thinkingKeptShare, thinkingTagsIn, thinkingText } from './thinking.js';
import type { WorkloadPlan } from './workload.js';

/** The task of every benchmark run: the retention probe looks for it verbatim. */
export const BENCH_TASK = [
  'Review this code base for robustness: read the request and streaming code, note what each module does,',
  'add a one-line review note at the top of each file you have checked, and keep your scratch probes passing.',
  'Work through it file by file; do not stop early.',
  ...TASK_CONSTRAINTS
].join(' ');

/** Marks a summary request: ours appends this block; the reference design sends its own fresh prompt. */
const SUMMARY_MARKERS = ['<compaction-request>', 'Summarize this conversation for continuity'];

export function isSummaryRequest(request: ParsedRequest): boolean {
  const last = lastUserText(request);
  return SUMMARY_MARKERS.some((marker) => last.includes(marker));
}

/** What each agent request held of what must survive a compaction. */
export interface RetentionProbe {
  /** The agent request (0-based; re-fetch turns count), as the loop numbers its turns. */
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
  /** The bench's model answers at once (never a promise). */
  (request: ParsedRequest, ctx: { callIndex: number }): ScriptedReply;
  readonly probes: RetentionProbe[];
  /** Planned agent turns answered so far (re-fetch turns not counted). */
  readonly agentTurns: () => number;
  /** Every need met so far, and what it took. */
  readonly needs: NeedRecord[];
  /** Model calls (the fake's callIndex) answered with a re-fetch instead of the planned turn. */
  readonly refetchCalls: Set<number>;
  /** Per agent request from the 11th on: the share of the last 10 turns' thinking it carried (thinking.ts). */
  readonly thinkingShares: number[];
}

/**
 * The model of a benchmark run: it replays the planned turns, one per agent request, and ends with a
 * text answer after `turns` turns. It answers summary requests with a deliberately plain summary that
 * names neither the files changed nor the failed commands: the retention probe then measures what the
 * compaction code keeps, not how good a summary the model writes. It does carry the decisions stated
 * in what it summarizes, as any model asked for "key decisions" would. Each agent request is probed.
 *
 * At a turn that needs an earlier fact (see needs.ts), it looks for the fact in the request. When the
 * fact is gone and can be fetched again, it first spends one turn on the call that fetches it (the
 * planned turn follows on the next request); when it cannot be, the need is lost.
 */
export function benchScript(plan: WorkloadPlan, turns: number, schedule?: NeedSchedule): BenchScript {
  let step = 0;
  let requestIndex = 0;
  let needsCheckedAt = -1;
  const needs: NeedRecord[] = [];
  const refetchCalls = new Set<number>();
  const probes: RetentionProbe[] = [];
  const thinkingShares: number[] = [];
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

  const probe = (request: ParsedRequest, context: string) => {
    const quoted = (value: string) => context.includes(JSON.stringify(value).slice(1, -1));
    const files = [...changed];
    probes.push({
      turn: requestIndex,
      task: quoted(BENCH_TASK),
      filesChanged: files.length,
      filesFound: files.filter(quoted).length,
      latestFailure,
      failureFound: latestFailure === undefined || quoted(latestFailure)
    });
  };

  /** The re-fetch turn for the needs of this step that the context lost, or undefined. */
  const meetNeeds = (context: string): ScriptedReply | undefined => {
    if (!schedule || needsCheckedAt === step || step >= turns - 1) return undefined;
    needsCheckedAt = step;
    const refetches: ReturnType<typeof toolUse>[] = [];
    for (const need of schedule.needsAt(step)) {
      const { fact } = need;
      const outcome = holdsFact(context, fact) ? 'present' : fact.refetch ? 'refetched' : 'lost';
      needs.push({ turn: step, kind: fact.kind, age: step - fact.turn, outcome });
      if (outcome === 'refetched') refetches.push(toolUse(fact.refetch!.name, fact.refetch!.input));
    }
    if (refetches.length === 0) return undefined;
    return reply(
      text(`I need something I looked at before and no longer have; fetching it again.`),
      ...refetches
    );
  };

  const agentTurn = (
    request: ParsedRequest,
    callIndex: number
  ): { answer: ScriptedReply; planned: boolean } => {
    observe(request);
    const context = JSON.stringify([request.system, request.messages]);
    probe(request, context);
    const index = requestIndex++;
    const share = thinkingKeptShare(index, thinkingTagsIn(request.messages));
    if (share !== undefined) thinkingShares.push(share);
    const refetch = meetNeeds(context);
    if (refetch) {
      refetchCalls.add(callIndex);
      return { answer: withThinking(index, refetch), planned: false };
    }
    if (step >= turns - 1)
      return {
        answer: withThinking(
          index,
          reply(text(`Done after ${turns} turns: reviewed the files I read and noted it in each.`))
        ),
        planned: true
      };
    const planned = plan.turn(step);
    return {
      answer: withThinking(
        index,
        reply(text(planned.text), ...planned.calls.map((call) => toolUse(call.name, call.input)))
      ),
      planned: true
    };
  };

  const summaryTurn = (request: ParsedRequest): ScriptedReply =>
    isSummaryUpdateRequest(request) ? summaryUpdate(request) : fullSummary(request);

  // Asked only for what is new since the kept summary, it leaves out what that summary says and the
  // sections with nothing new, as a model following the instruction would.
  const summaryUpdate = (request: ParsedRequest): ScriptedReply => {
    const kept = new Set(decisionsInKeptSummary(request));
    const fresh = decisionsIn(request).filter((decision) => !kept.has(decision));
    return reply(
      text(
        [
          ...(fresh.length > 0 ? ['### Decisions', ...fresh.map((decision) => `- ${decision}.`)] : []),
          '### Current state',
          `Reviewing; ${step} turns done.`,
          '### Next step',
          'Read the next file of the working set.'
        ].join('\n')
      )
    );
  };

  const fullSummary = (request: ParsedRequest): ScriptedReply =>
    reply(
      text(
        [
          '## Task and intent',
          'Review the code base for robustness, file by file, and leave a review note at the top of each checked file.',
          '## Decisions',
          '- Work through the SDK sources first, then the YAML and glob libraries.',
          '- Read files whole when they are short, in windows when they are long.',
          ...decisionsIn(request).map((decision) => `- ${decision}.`),
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

  const script = (request: ParsedRequest, { callIndex }: { callIndex: number }): ScriptedReply => {
    if (isSummaryRequest(request)) return summaryTurn(request);
    const { answer, planned } = agentTurn(request, callIndex);
    if (planned) step++;
    return answer;
  };
  return Object.assign(script, { probes, agentTurns: () => step, needs, refetchCalls, thinkingShares });
}

/** Every agent reply starts with the model's thinking (Sonnet 5.5 thinks adaptively by default). */
function withThinking(index: number, answer: ScriptedReply): ScriptedReply {
  const calls = answer.content.flatMap((block) =>
    block.type === 'tool_use' ? [{ name: block.name, input: block.input }] : []
  );
  return { ...answer, content: [thinking(thinkingText(index, calls)), ...answer.content] };
}

/** The decisions stated anywhere in a request (the agent's texts, an earlier summary), in order, once each. */
function decisionsIn(request: ParsedRequest): string[] {
  return decisionsInText(JSON.stringify(request.messages));
}

function decisionsInText(context: string): string[] {
  return [...new Set(context.match(/Decision D\d+: [^"\\]*?(?=\.(?:[ "\\]|$))/g) ?? [])];
}

/** The decisions the summary kept in the request (ours, in <conversation-summary>) already states. */
function decisionsInKeptSummary(request: ParsedRequest): string[] {
  const context = JSON.stringify(request.messages);
  const kept = context.match(/<conversation-summary[\s\S]*?<\/conversation-summary>/g) ?? [];
  return decisionsInText(kept.join('\n'));
}

/** Our update instruction (src/compaction/summary-anchor.ts) asks only for what is new. */
function isSummaryUpdateRequest(request: ParsedRequest): boolean {
  return lastUserText(request).includes('write only what is new or changed since it');
}
