import { mkdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import { changedFiles } from '../git/changed-files.js';
import type { Workspace } from '../tools/workspace.js';
import { WrittenFiles } from '../transcript/written-files.js';
import { readRegularFileSync } from '../files/bounded-file-sync.js';
import { splitLines } from '../tools/read-file.js';
import type { CompactionStore } from './pipeline.js';

/** A restored file shows at most a few thousand tokens; a bigger file is not worth reading whole. */
const MAX_RESTORED_FILE_BYTES = 8 * 1024 * 1024;

/**
 * Compaction's disk: segments and spilled results go to the run folder under `.transcripts/`,
 * recently read files come back through the workspace (the same boundary the tools use).
 */
export class RunFolderStore implements CompactionStore {
  private readonly runDir: string;

  constructor(
    runDir: string,
    private readonly workspace: Workspace,
    readonly transcriptPath: string,
    /** Segments and spilled results leave with the artifact: they are redacted like the transcript. */
    private readonly redact: (text: string) => string = (text) => text,
    /** The action's ledger of what it wrote: the artifact takes these files only as written. */
    readonly written: WrittenFiles = new WrittenFiles(runDir)
  ) {
    mkdirSync(runDir, { recursive: true });
    // Real path, so it compares with the workspace root (also real) when shown relative to it.
    this.runDir = realpathSync(runDir);
  }

  saveSegment(number: number, history: readonly MessageParam[]): string {
    const file = path.join(this.runDir, 'segments', `segment-${String(number).padStart(3, '0')}.json`);
    return this.writeOrSay(file, () => JSON.stringify(history));
  }

  readonly spill = (toolUseId: string, text: string): string => {
    const safeId = toolUseId.replace(/[^A-Za-z0-9_-]/g, '_');
    const file = path.join(this.runDir, 'tool-results', `${safeId}.txt`);
    return this.writeOrSay(file, () => text);
  };

  /**
   * Writes a file of the run folder and returns its path; when that cannot be done safely (the agent
   * put a link where a folder should be, or the disk is full), the run goes on, and the path the
   * model is shown says the file is missing and why. The transcript in memory still has everything.
   */
  private writeOrSay(file: string, text: () => string): string {
    try {
      // The written-file ledger makes the folders, never through a link the agent put on the way.
      this.written.write(file, this.redact(text()));
      return this.shown(file);
    } catch (error) {
      const reason = error instanceof Error ? error.message.split('. ')[0] : String(error);
      return `(not saved: ${reason}; the full text is in the run's transcript)`;
    }
  }

  readRecentFile(
    requested: string,
    maxTokens: number,
    estimate: (chars: number) => number
  ): string | undefined {
    let text: string;
    try {
      // Between turns the agent may have put a FIFO or a device where it read a file: a regular file
      // only, opened without blocking, and not one so big that reading it costs more than it shows.
      text = readRegularFileSync(this.workspace.resolveForRead(requested), MAX_RESTORED_FILE_BYTES).toString(
        'utf8'
      );
    } catch {
      return undefined;
    }
    const lines = splitLines(text);
    const numbered: string[] = [];
    let chars = 0;
    for (let index = 0; index < lines.length; index++) {
      const line = `${String(index + 1).padStart(6)}\t${lines[index]}`;
      if (estimate(chars + line.length) > maxTokens) {
        numbered.push(
          `[... ${lines.length - index} more lines; read_file ${requested} with offset ${index + 1}]`
        );
        break;
      }
      numbered.push(line);
      chars += line.length + 1;
    }
    return numbered.join('\n');
  }

  changedFiles(): Promise<string[] | undefined> {
    return changedFiles(this.workspace.root);
  }

  /** Inside the repository, paths are shown relative to it, so read_file can open them. */
  private shown(file: string): string {
    const relative = path.relative(this.workspace.root, file);
    return relative.startsWith('..') || path.isAbsolute(relative) ? file : relative.split(path.sep).join('/');
  }
}
