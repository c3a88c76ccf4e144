/**
 * Run in a child process whose file-size limit (RLIMIT_FSIZE, `ulimit -f`) is set low: the kernel
 * then acts as a full disk does, a write that crosses the limit is cut short and the next one
 * fails. Writes the run's transcript and compaction log in the folder given, then prints what the
 * action kept of each (its lines and its disk error) as JSON, for the parent to stage.
 */
import { compactionLogWriter } from '../../src/transcript/compaction-log.js';
import { TranscriptWriter } from '../../src/transcript/writer.js';

const [runDir, count] = process.argv.slice(2);
const LONG = 'x'.repeat(1500);
const transcript = new TranscriptWriter(runDir!);
const compactionLog = compactionLogWriter(runDir!);
for (let turn = 0; turn < Number(count); turn++) {
  transcript.append({ type: 'retry', turn, attempt: 1, error: LONG });
  compactionLog.append({
    turn,
    layer: 'micro',
    reason: LONG,
    tokens_before: 10,
    tokens_after: 5,
    results_cleared: 1,
    summary_tokens: 0,
    summary_cost_usd: 0,
    duration_ms: 0,
    segment_path: null,
    focus: null,
    tool_use_ids: []
  });
}
transcript.close();
compactionLog.close();
const kept = (record: { lines(): readonly string[]; diskError?: string | undefined }) => ({
  lines: record.lines(),
  diskError: record.diskError
});
process.stdout.write(JSON.stringify({ transcript: kept(transcript), compactionLog: kept(compactionLog) }));
