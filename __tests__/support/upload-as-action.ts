import { stageRunArtifact } from '../../src/artifacts/stage-run.js';
import { ActionsArtifactUploader } from '../../src/artifacts/transcript-artifact.js';
import { compactionLogWriter } from '../../src/transcript/compaction-log.js';
import type { TranscriptWriter } from '../../src/transcript/writer.js';
import { artifactEnv, type FakeArtifacts } from '../../test-support/fake-artifacts/index.js';
import { createTempDir } from './temp-repo.js';

/**
 * A run folder staged and uploaded to a fake artifact service as the action does it (stageRunArtifact,
 * then the real @actions/artifact client), with the runner's artifact environment for this one call.
 */
export async function uploadAsTheAction(
  artifacts: FakeArtifacts,
  name: string,
  runDir: string,
  writer: TranscriptWriter
): Promise<void> {
  const env = artifactEnv(artifacts);
  const saved = Object.keys(env).map((key) => [key, process.env[key]] as const);
  const realWrite = process.stdout.write.bind(process.stdout);
  Object.assign(process.env, env);
  // @actions/core logs the upload as workflow commands on stdout.
  process.stdout.write = (() => true) as typeof process.stdout.write;
  try {
    const staged = await stageRunArtifact(
      { runDir, transcript: writer, compactionLog: compactionLogWriter(runDir), files: [] },
      { redact: (text) => text, parentDir: createTempDir('runner-temp-') }
    );
    await new ActionsArtifactUploader().upload(name, staged.dir, 1, staged.files);
    await staged.remove();
  } finally {
    process.stdout.write = realWrite;
    for (const [key, value] of saved) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  }
}
