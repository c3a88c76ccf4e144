import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { SpillWriter } from './spill.js';

/** The disk and the repository, as compaction needs them. Handed in, so strategies test without I/O. */
export interface CompactionStore {
  /** Saves the history as it is before a compaction drops anything; returns the segment's path. */
  saveSegment(number: number, history: readonly MessageParam[]): string;
  readonly spill: SpillWriter;
  /** A file as read_file would show it, bounded to `maxTokens`; undefined when it is gone. */
  readRecentFile(path: string, maxTokens: number, estimate: (chars: number) => number): string | undefined;
  /** `git status --porcelain` lines, or undefined when git cannot say. */
  changedFiles(): Promise<string[] | undefined>;
  /** Where the model is told the full transcript is. */
  readonly transcriptPath: string;
}
