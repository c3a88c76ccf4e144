/**
 * Where the repository's instruction files are read from: the checkout as it is before the agent's
 * first turn, or one commit of git (a pull request's base). Both answer the same two questions, so
 * the discovery in instruction-files.ts reads the same way from either.
 */
export type SourceEntry =
  | { readonly kind: 'absent' }
  | { readonly kind: 'folder' }
  /** A regular file; `text` is at most the bytes asked for, `size` is the whole file's. */
  | { readonly kind: 'file'; readonly size: number; readonly bytes: Buffer }
  /** Something is there that is not read (a symbolic link, a FIFO, a submodule, a file too big). */
  | { readonly kind: 'refused'; readonly reason: string };

export interface InstructionSource {
  /** For the report and the transcript: "the checkout", or "the base branch main at abc1234". */
  readonly description: string;
  /**
   * What is at `relative` (forward slashes, no `..`, inside the repository): a file is read up to
   * `maxBytes`. Never follows a symbolic link, in the last component or in a folder on the way.
   */
  entry(relative: string, maxBytes: number): Promise<SourceEntry>;
}

/**
 * Files larger than this are not read at all (not even their first part): an instruction file is a
 * page or two; a mebibyte is a generated file or a trap, and would only be cut to the cap anyway.
 */
export const MAX_INSTRUCTION_FILE_READ_BYTES = 1024 * 1024;
