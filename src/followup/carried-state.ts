import { z } from 'zod';
import { isActionBotComment } from '../github/events/bot-author.js';
import { FenceTracker } from '../github/markdown/code-fence.js';
import type { ThreadComment } from '../github/api/github-api.js';
import {
  STATE_MARKER_NAME,
  stateMarkerCount,
  TRACKING_MARKER
} from '../github/markdown/outbound-hidden-markers.js';

/**
 * What a follow-up run carries over from the run before it on the same thread: the task, the final
 * summary, the work ledger, the person's recent messages, and where the work is (branch, pull
 * request, transcript artifact). It is DATA for the next run, never instructions: the next run
 * states it inside a block that says so, and the new request stands apart as the instruction.
 *
 * It travels two ways: read from the previous run's transcript artifact (the full record), or,
 * when that has expired, from a size-bounded copy embedded in the action's own report comment,
 * trusted only when that comment's author is the action's Bot account (see bot-author.ts).
 */
export const CARRIED_STATE_VERSION = 1;
/** Bounds of each field: a report comment must stay far under GitHub's 65,536-character limit. */
export const CARRIED_LIMITS = {
  task: 4_000,
  summary: 6_000,
  ledger: 3_000,
  publishedLine: 1_000,
  publishedLines: 100,
  message: 1_000,
  messages: 5,
  previousRuns: 10,
  encoded: 24_000
} as const;

const previousRunSchema = z.object({
  runUrl: z.string().max(500),
  costUsd: z.number().nonnegative().finite()
});

export const carriedStateSchema = z.object({
  version: z.literal(CARRIED_STATE_VERSION),
  repository: z.string().max(200),
  runId: z.string().max(100),
  runUrl: z.string().max(500),
  task: z.string().max(CARRIED_LIMITS.task),
  summary: z.string().max(CARRIED_LIMITS.summary),
  ledger: z.string().max(CARRIED_LIMITS.ledger),
  /**
   * The ledger's publishing lines ("Changes pushed to …", the diff stat), as the action wrote them:
   * what a transcript cannot tell. Optional, so states written before it was added still read.
   */
  published: z
    .array(z.string().max(CARRIED_LIMITS.publishedLine))
    .max(CARRIED_LIMITS.publishedLines)
    .optional(),
  recentUserMessages: z.array(z.string().max(CARRIED_LIMITS.message)).max(CARRIED_LIMITS.messages),
  /**
   * A read-only run's kind: after a `plan` run, `/agent go` carries out its summary (the plan).
   * Absent for a run that changes the repository, and in states written before it was added.
   */
  mode: z.enum(['plan', 'review']).optional(),
  /**
   * The issue or pull request the run served (its report's thread); null for a run without one. A
   * state counts only on its own thread, or on the pull request its run opened: a genuine state
   * copied onto another thread (by another workflow's bot comment) must not carry its plan, its
   * branch or its lower spend there. Optional,
   * so states written before it was added still read (they are not carried: see state-check.ts).
   */
  thread: z.number().int().positive().nullable().optional(),
  branch: z.string().max(250).nullable(),
  pullRequest: z.number().int().positive().nullable(),
  artifactId: z.number().int().positive().nullable(),
  /**
   * The last line's hash of the run's transcript: the artifact's transcript must end there. Optional,
   * so states written before it was added still read.
   */
  transcriptHead: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable()
    .optional(),
  costUsd: z.number().nonnegative().finite(),
  /** The runs before this one, oldest first: the report shows the run-by-run and cumulative cost. */
  previousRuns: z.array(previousRunSchema).max(CARRIED_LIMITS.previousRuns),
  /**
   * What the thread's runs up to and including this one cost in all: previousRuns keeps only the
   * last few, and max_thread_budget_usd caps the whole (see thread-budget.ts). Optional, so states
   * written before it was added still read (their total is summed from previousRuns).
   */
  threadCostUsd: z.number().nonnegative().finite().optional()
});

export type CarriedState = z.infer<typeof carriedStateSchema>;

/** What the thread asked so far, oldest first (the last is this run's request), within the carried bound. */
export function requestsSoFar(previous: CarriedState | undefined, request: string): string[] {
  return [...(previous?.recentUserMessages ?? []), request].slice(-CARRIED_LIMITS.messages);
}

/** Cuts every field to its bound, keeping the end of long texts (where the latest state is). */
export function boundedState(state: CarriedState): CarriedState {
  const tail = (text: string, max: number) =>
    text.length <= max ? text : `…${text.slice(text.length - max + 1)}`;
  const head = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
  return {
    ...state,
    task: head(state.task, CARRIED_LIMITS.task),
    // A summary's end says where the work stopped; a plan's start says what it is for: keep those.
    summary:
      state.mode === 'plan'
        ? head(state.summary, CARRIED_LIMITS.summary)
        : tail(state.summary, CARRIED_LIMITS.summary),
    ledger: tail(state.ledger, CARRIED_LIMITS.ledger),
    ...(state.published
      ? {
          published: state.published
            .slice(0, CARRIED_LIMITS.publishedLines)
            .map((line) => head(line, CARRIED_LIMITS.publishedLine))
        }
      : {}),
    recentUserMessages: state.recentUserMessages
      .slice(-CARRIED_LIMITS.messages)
      .map((message) => head(message, CARRIED_LIMITS.message)),
    previousRuns: state.previousRuns.slice(-CARRIED_LIMITS.previousRuns)
  };
}

const MARKER = STATE_MARKER_NAME;
/**
 * The state block as the action writes it: the last thing in its comment, followed only by the
 * tracking marker. A marker anywhere else was not written by the action.
 */
const TRAILING_STATE = new RegExp(
  `(^|\\n)<!-- ${MARKER}:v(\\d+) ([A-Za-z0-9+/=]+) -->(?:\\s*${TRACKING_MARKER})?\\s*$`
);

/**
 * The state as a hidden HTML comment for the report: base64 of the JSON, so no markdown, mention
 * or closing keyword in it can render, and `-->` cannot occur inside it.
 */
export function embedState(state: CarriedState, redact: (text: string) => string): string {
  const json = redact(JSON.stringify(boundedState(state)));
  const encoded = Buffer.from(json, 'utf8').toString('base64');
  if (encoded.length > CARRIED_LIMITS.encoded) return '';
  return `<!-- ${MARKER}:v${CARRIED_STATE_VERSION} ${encoded} -->`;
}

export type ExtractedState =
  | { readonly kind: 'found'; readonly state: CarriedState }
  | { readonly kind: 'none' }
  | { readonly kind: 'refused'; readonly reason: string };

function untrustedAuthor(comment: Pick<ThreadComment, 'login' | 'userType'>, botLogin: string): string {
  return comment.login === botLogin
    ? `the state in a comment by ${comment.login} is not trusted: that login is a ${comment.userType} account, not the bot account ${botLogin}`
    : `the state in a comment by ${comment.login} (not ${botLogin}) is not trusted`;
}

/**
 * The state embedded in a report comment. Read only from the action's own trailing block: the
 * comment must be the bot's own (anyone can paste a marker), hold exactly one marker (everything
 * else the action shows is defused, see hidden-markers.ts), end with it, and not hold it inside
 * fenced code. Refused too when it is too large or does not match the schema.
 */
export function extractState(
  comment: Pick<ThreadComment, 'body' | 'login' | 'userType'>,
  botLogin: string
): ExtractedState {
  const markers = stateMarkerCount(comment.body);
  if (markers === 0) return { kind: 'none' };
  if (!isActionBotComment(comment, botLogin))
    return { kind: 'refused', reason: untrustedAuthor(comment, botLogin) };
  if (markers > 1)
    return {
      kind: 'refused',
      reason: `the latest report comment holds ${markers} state markers where the action writes one, so none of them is read`
    };
  const match = TRAILING_STATE.exec(comment.body);
  if (!match || insideFencedCode(comment.body.slice(0, match.index)))
    return {
      kind: 'refused',
      reason:
        'the state marker in the latest report comment is not the trailing block the action writes, so it is not read'
    };
  const version = match[2]!;
  const encoded = match[3]!;
  if (Number(version) !== CARRIED_STATE_VERSION) {
    return {
      kind: 'refused',
      reason: `the state is version ${version}, this action reads ${CARRIED_STATE_VERSION}`
    };
  }
  if (encoded.length > CARRIED_LIMITS.encoded) return { kind: 'refused', reason: 'the state is too large' };
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(encoded, 'base64').toString('utf8'));
  } catch {
    return { kind: 'refused', reason: 'the state is not valid JSON' };
  }
  const parsed = carriedStateSchema.safeParse(value);
  return parsed.success
    ? { kind: 'found', state: parsed.data }
    : {
        kind: 'refused',
        reason: `the state does not match its schema (${parsed.error.issues[0]?.message ?? 'invalid'})`
      };
}

/** Whether the text leaves a fenced code block open: a marker after it would be inside the code. */
function insideFencedCode(before: string): boolean {
  const fences = new FenceTracker();
  for (const line of before.split('\n')) fences.read(line);
  return fences.open !== undefined;
}
