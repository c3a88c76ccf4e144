import path from 'node:path';
import type { Script } from '../../test-support/fake-anthropic/index.js';
import { stateFromPayload } from '../../test-support/fake-github/index.js';
import { actionWorldPerTest, examplePayload, type ActionWorld } from './action-world.js';

const EXAMPLE = path.resolve('examples/word-stats');

/** An `issue_comment` on the example issue, with its own comment id (the queue keys requests by it). */
export function commentPayload(body: string, id: number): Record<string, unknown> {
  const payload = examplePayload('issue_comment', 'created', body);
  (payload.comment as { id: number }).id = id;
  return payload;
}

/**
 * A world for plan-then-approve runs on examples/word-stats: a writer asked for a plan, the model
 * follows `script`, and each run's transcript artifact is linked to its run (a state counts only when
 * its run's artifact proves it). One per test, closed after it.
 */
export function planWorldPerTest(): (script: Script) => Promise<ActionWorld> {
  const startWorld = actionWorldPerTest();
  return async (script) => {
    const world = await startWorld({
      seed: EXAMPLE,
      github: stateFromPayload(commentPayload('/agent plan the word count test fails', 1), {
        senderPermission: 'write'
      }),
      anthropic: { script }
    });
    world.github.linkArtifacts(world.artifacts, (artifact) =>
      Number(/^agent-transcripts-(\d+)-\d+$/.exec(artifact.name)?.[1] ?? 0)
    );
    return world;
  };
}
