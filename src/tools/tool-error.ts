/**
 * A failure worth telling the model about in plain words; the run goes on. Its own module because
 * what tools stand on (the workspace, the regex and search helpers) throws it too, and must not have to
 * import the tool interface to do so.
 */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}
