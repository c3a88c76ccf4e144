import path from 'node:path';
import type { ModelRequest } from '../../src/model/model-client.js';
import { runTestAgent } from '../support/agent-harness.js';
import { MemoryStore, pipeline, SummaryModel } from '../support/compaction-fixtures.js';
import { MemoryTranscript, ScriptedModelClient, text, toolUse } from '../support/scripted-model-client.js';
import { createTempRepo } from '../support/temp-repo.js';

const FILES = [
  'index.js',
  'settings.js',
  'managers/tasks.js',
  'providers/provider.js',
  'providers/filters/deep.js',
  'providers/filters/entry.js',
  'readers/reader.js',
  'utils/pattern.js',
  'utils/path.js'
];

/** The request as the cache sees it: cache_control markers are not part of the cached content. */
function withoutMarkers(value: unknown): string {
  return JSON.stringify(value, (key, field: unknown) => (key === 'cache_control' ? undefined : field));
}

describe('prompt-cache prefix between micro clears', () => {
  it('keeps every request an exact extension of the previous one, except at a clear', async () => {
    const repo = createTempRepo(path.resolve('node_modules/fast-glob/out'));
    const turns = 40;
    const model = new ScriptedModelClient(
      Array.from({ length: turns }, (_, turn) => () => ({
        content:
          turn === turns - 1
            ? [text('done')]
            : [
                text(`Reading ${FILES[turn % FILES.length]}.`),
                toolUse(`t${turn}`, 'read_file', { path: FILES[turn % FILES.length]! })
              ]
      }))
    );
    const { compactor } = pipeline(
      { microKeepRecent: 3, microClearAtLeast: 6_000, thresholdTokens: 95_000 },
      new SummaryModel(),
      new MemoryStore()
    );
    const outcome = await runTestAgent({
      model,
      repoRoot: repo.root,
      transcript: new MemoryTranscript(),
      compactor
    });
    repo.remove();
    expect(outcome.stopReason).toBe('success');

    const clearedBefore = new Set(
      outcome.compactionLog
        // A repeat note changes only the unsent message: it is not a clear of the sent prefix.
        .filter((event) => event.layer === 'micro' && !event.reason.includes('replaced by a note'))
        .map((event) => event.turn)
    );
    expect(clearedBefore.size).toBeGreaterThanOrEqual(2);
    expect(outcome.compactionLog.every((event) => event.layer === 'micro')).toBe(true);

    const requests: ModelRequest[] = model.requests;
    let extended = 0;
    let broken = 0;
    for (let k = 1; k < requests.length; k++) {
      const previous = requests[k - 1]!;
      const current = requests[k]!;
      // Tools and system never change within a run.
      expect(JSON.stringify([current.tools, current.system])).toBe(
        JSON.stringify([previous.tools, previous.system])
      );
      const shared = current.messages.slice(0, previous.messages.length);
      const samePrefix = withoutMarkers(shared) === withoutMarkers(previous.messages);
      if (clearedBefore.has(k)) {
        // A clear rewrites old results: the prefix changes here, once, for everything cleared.
        expect(samePrefix).toBe(false);
        broken++;
        continue;
      }
      expect(samePrefix).toBe(true);
      // The previous request's moving breakpoint is still marked, byte for byte: an exact cache hit.
      expect(JSON.stringify(current.messages[previous.messages.length - 1])).toBe(
        JSON.stringify(previous.messages.at(-1))
      );
      extended++;
    }
    expect(broken).toBe(clearedBefore.size);
    expect(extended).toBe(requests.length - 1 - broken);
  });
});
