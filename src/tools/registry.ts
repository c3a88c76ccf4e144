import { z } from 'zod';
import type { Tool as ToolDefinition } from '@anthropic-ai/sdk/resources/messages';
import type { SandboxRefusal, Tool, ToolContext } from './tool.js';
import { ToolError } from './tool-error.js';
import { namedErrorMessage } from '../errors/error-message.js';
import { DeniedCalls, ToolDeniedError, type DeniedCall } from './limits/denied.js';

export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface ToolOutcome {
  readonly content: string;
  readonly isError: boolean;
  readonly durationMs: number;
  /** Set when the tool limits refused the call: the rule and what was denied (the transcript keeps both). */
  readonly denied?: { readonly rule: string; readonly head: string };
  /** The destinations the sandbox refused during the call. */
  readonly sandboxBlocked?: readonly SandboxRefusal[];
}

export interface RegistryOptions {
  /** Tools the limits leave out, with the error a call to one by name gets. */
  readonly withheld?: ReadonlyMap<string, ToolDeniedError>;
}

/** Validates and dispatches tool calls. Every failure becomes an error result; nothing escapes to the loop. */
export class ToolRegistry {
  /** Built once: byte-identical tool definitions on every request keep the prompt cache warm. */
  readonly definitions: readonly ToolDefinition[];
  private readonly byName: ReadonlyMap<string, Tool>;
  private readonly withheld: ReadonlyMap<string, ToolDeniedError>;
  private readonly denials = new DeniedCalls();

  constructor(tools: readonly Tool[], options: RegistryOptions = {}) {
    this.byName = new Map(tools.map((tool) => [tool.name, tool]));
    this.definitions = tools.map(toolDefinition);
    this.withheld = options.withheld ?? new Map();
  }

  /** The calls the tool limits refused so far, grouped (the report lists them). */
  deniedCalls(): DeniedCall[] {
    return this.denials.entries();
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  async execute(call: ToolCall, context: ToolContext): Promise<ToolOutcome> {
    const started = Date.now();
    const finish = (content: string, isError: boolean): ToolOutcome => ({
      content: content === '' ? '(no output)' : content,
      isError,
      durationMs: Date.now() - started
    });
    const denied = (error: ToolDeniedError): ToolOutcome => {
      this.denials.record(call.name, error);
      return { ...finish(error.message, true), denied: { rule: error.rule, head: error.head } };
    };
    const tool = this.byName.get(call.name);
    const withheld = this.withheld.get(call.name);
    if (!tool && withheld) return denied(withheld);
    if (!tool) {
      return finish(`Unknown tool "${call.name}". Available tools: ${this.names().join(', ')}.`, true);
    }
    const parsed = tool.inputSchema.safeParse(call.input);
    if (!parsed.success)
      return finish(`Invalid input for ${call.name}: ${describeIssues(parsed.error)}`, true);
    try {
      const output = await tool.run(parsed.data, context);
      const outcome = finish(output.content, output.isError === true);
      return output.sandboxBlocked && output.sandboxBlocked.length > 0
        ? { ...outcome, sandboxBlocked: output.sandboxBlocked }
        : outcome;
    } catch (error) {
      if (error instanceof ToolDeniedError) return denied(error);
      return finish(describeFailure(error), true);
    }
  }
}

/** A tool as the API is sent it; the MCP size cap measures the same text (mcp/definition-budget.ts). */
export function toolDefinition(tool: Tool): ToolDefinition {
  if (tool.apiInputSchema) {
    return {
      name: tool.name,
      description: tool.description,
      input_schema: { ...tool.apiInputSchema, type: 'object' }
    };
  }
  const schema = z.toJSONSchema(tool.inputSchema, { target: 'draft-7' }) as Record<string, unknown>;
  delete schema.$schema;
  return {
    name: tool.name,
    description: tool.description,
    input_schema: { ...schema, type: 'object' }
  };
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'input'}: ${issue.message}`)
    .join('; ');
}

function describeFailure(error: unknown): string {
  if (error instanceof ToolError) return error.message;
  return namedErrorMessage(error);
}
