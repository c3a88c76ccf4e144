import { ToolError } from '../tool-error.js';

/** A call the limits refused: the registry records it for the report and the transcript. */
export class ToolDeniedError extends ToolError {
  constructor(
    message: string,
    /** The rule that said no (`disallowed_bash_commands: git push`, `allowed_tools`, `unreadable`). */
    readonly rule: string,
    /** What was denied, in a few words: the command's first words, or the tool's name. */
    readonly head: string
  ) {
    super(message);
    this.name = 'ToolDeniedError';
  }
}

/** Denied calls grouped by tool, head and rule, in the order they first happened. */
export interface DeniedCall {
  readonly tool: string;
  readonly head: string;
  readonly rule: string;
  readonly count: number;
}

export class DeniedCalls {
  private readonly calls = new Map<string, DeniedCall>();

  record(tool: string, denied: ToolDeniedError): void {
    const key = JSON.stringify([tool, denied.head, denied.rule]);
    const seen = this.calls.get(key);
    this.calls.set(key, { tool, head: denied.head, rule: denied.rule, count: (seen?.count ?? 0) + 1 });
  }

  entries(): DeniedCall[] {
    return [...this.calls.values()];
  }

  total(): number {
    return this.entries().reduce((sum, call) => sum + call.count, 0);
  }
}
