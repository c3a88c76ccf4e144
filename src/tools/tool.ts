import type { z } from 'zod';
import type { Workspace } from './workspace.js';

/** What a tool may touch while it runs. Handed in, so tests can use a temporary repository. */
export interface ToolContext {
  readonly workspace: Workspace;
  readonly signal: AbortSignal;
  /** Environment for child processes: already filtered, never the action's own. */
  readonly env: NodeJS.ProcessEnv;
  /** The `compact` tool asks the loop to compact once this turn's tool results are answered. */
  requestCompaction(focus: string | undefined): void;
}

/** A tool the model can call. Its zod schema is both the validator and the JSON schema sent to the API. */
export interface Tool<Input = unknown> {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: z.ZodType<Input>;
  /**
   * The JSON schema sent to the API when it is not derived from `inputSchema`: an MCP server's
   * tool, whose schema is the server's own (checked as data) and which the server validates.
   */
  readonly apiInputSchema?: Readonly<Record<string, unknown>>;
  /** Returns the text for the model; throws ToolError (or any error) for a failure. */
  run(input: Input, context: ToolContext): Promise<ToolOutput>;
}

/** A tool's answer. `isError` marks a result the model should treat as a failure (e.g. non-zero exit). */
export interface ToolOutput {
  readonly content: string;
  readonly isError?: boolean;
  /** The destinations the sandbox refused during the call (bash in the box); the transcript records them. */
  readonly sandboxBlocked?: readonly SandboxRefusal[];
}

/** One refused destination, as a tool result carries it. */
export interface SandboxRefusal {
  readonly host: string;
  readonly port: number;
  readonly reason: string;
}

/** Lets a registry hold tools of different input types without `any`. */
export function defineTool<Input>(tool: Tool<Input>): Tool<unknown> {
  return tool as unknown as Tool<unknown>;
}
