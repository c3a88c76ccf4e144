import type { ActionRun } from '../../test-support/action-runner.js';
import {
  reply,
  text,
  toolUse,
  toolUsesInHistory,
  type Script
} from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import {
  examplePayload,
  type ActionRequest,
  type ActionWorld,
  type ActionWorldOptions
} from '../support/action-world.js';

/** The tests of the trust root (workflow-trust-*.test.ts) share one thread and one model. */

/** The account every GITHUB_TOKEN workflow of the repository comments as. */
export const BOT = 'github-actions[bot]';

/** The model: one file written, then done. */
export const noteWriter: Script = (request) =>
  toolUsesInHistory(request).length === 0
    ? reply(text('Writing a note.'), toolUse('write_file', { path: 'note.txt', content: 'note\n' }))
    : reply(text('Wrote the note.'));

export function commentPayload(body: string, id: number): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', body);
  (payload.comment as { id: number }).id = id;
  return payload;
}

/** The issue every comment here is on. */
export const issueNumber = (): number => (commentPayload('', 1).issue as { number: number }).number;

/**
 * A world whose writers have write access; with `linkArtifacts`, the fake GitHub serves the
 * transcript artifacts the runs upload as uploaded by the run their name gives.
 */
export async function trustWorld(
  start: (options?: ActionWorldOptions) => Promise<ActionWorld>,
  options: { readonly linkArtifacts: boolean }
): Promise<ActionWorld> {
  const w = await start({
    github: stateFromPayload(commentPayload('/agent write a note', 1), { senderPermission: 'write' }),
    anthropic: { script: noteWriter }
  });
  if (options.linkArtifacts)
    w.github.linkArtifacts(w.artifacts, (artifact) =>
      Number(/^agent-transcripts-(\d+)-\d+$/.exec(artifact.name)?.[1] ?? 0)
    );
  return w;
}

/** A run of this workflow for a comment `body` whose id is the run's id (the built action unless `entry` says). */
export function runOnComment(
  w: ActionWorld,
  body: string,
  runId: string,
  inputs: Record<string, string> = {},
  more: Pick<ActionRequest, 'env' | 'entry'> = {}
): Promise<ActionRun> {
  return w.run({
    eventName: 'issue_comment',
    payload: commentPayload(body, Number(runId)),
    workspace: w.cloneOrigin(),
    runId,
    inputs,
    ...more
  });
}
