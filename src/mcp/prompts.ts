import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import type { RequestRecord } from './server.js';

/** One argument of a prompt. Values are plain strings; `pattern` says which ones are accepted. */
export interface PromptArgument {
  name: string;
  description: string;
  required: boolean;
  /** A value must match it (whole string); checked before the prompt is rendered. */
  pattern?: RegExp;
  /** What a value looks like, for the error when it does not match. */
  example?: string;
}

/**
 * A prompt: a ready-made request the user picks in the client, rendered into one user message.
 * Its text names tools in backticks (`get_project_info`) and their parameters as `name: value`;
 * a guard test checks every name against the tool registry.
 */
export interface PromptDefinition {
  name: string;
  title: string;
  description: string;
  arguments: PromptArgument[];
  /** The message text for these arguments (required ones are present and every value was checked). */
  render(args: Readonly<Record<string, string>>): string;
}

/** Declares a prompt. */
export function definePrompt(def: PromptDefinition): PromptDefinition {
  return def;
}

/** Longest accepted argument value. */
const MAX_ARGUMENT_LENGTH = 512;

/**
 * Every prompt droidbus serves. The reference's `diagnose-crash`, `full-deploy` and `build-and-fix`
 * join when the tools they name exist (a guard test would fail before).
 */
export const ALL_PROMPTS: readonly PromptDefinition[] = [];

/** Checks a prompts/get call's arguments; returns them, or throws invalid_params. */
export function checkPromptArguments(
  prompt: PromptDefinition,
  given: Record<string, string> | undefined,
): Record<string, string> {
  const args = given ?? {};
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new McpError(
      ErrorCode.InvalidParams,
      `Prompt ${prompt.name} has no argument ${unknown.map((k) => `'${k.slice(0, 100)}'`).join(', ')}; it takes ${prompt.arguments.map((a) => a.name).join(', ') || 'no arguments'}.`,
    );
  }
  const out: Record<string, string> = {};
  for (const arg of prompt.arguments) {
    const value = args[arg.name];
    if (value === undefined || value === '') {
      if (arg.required) {
        throw new McpError(
          ErrorCode.InvalidParams,
          `Prompt ${prompt.name} needs the argument '${arg.name}': ${arg.description}`,
        );
      }
      continue;
    }
    if (value.length > MAX_ARGUMENT_LENGTH) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt ${prompt.name}: '${arg.name}' is longer than ${MAX_ARGUMENT_LENGTH} characters.`,
      );
    }
    if (arg.pattern && !new RegExp(`^(?:${arg.pattern.source})$`, arg.pattern.flags).test(value)) {
      throw new McpError(
        ErrorCode.InvalidParams,
        `Prompt ${prompt.name}: '${arg.name}' is not valid${arg.example ? ` (for example ${arg.example})` : ''}.`,
      );
    }
    out[arg.name] = value;
  }
  return out;
}

/** Registers prompts/list and prompts/get on a server (the prompts capability must be declared). */
export function registerPrompts(
  server: Server,
  prompts: readonly PromptDefinition[],
  record: (record: RequestRecord) => void,
): void {
  server.setRequestHandler(ListPromptsRequestSchema, () => ({
    prompts: prompts.map((p) => ({
      name: p.name,
      title: p.title,
      description: p.description,
      arguments: p.arguments.map((a) => ({ name: a.name, description: a.description, required: a.required })),
    })),
  }));
  server.setRequestHandler(GetPromptRequestSchema, (request): GetPromptResult => {
    const started = performance.now();
    const name = request.params.name.slice(0, 200);
    const prompt = prompts.find((p) => p.name === request.params.name);
    if (!prompt) {
      record({ kind: 'prompt', name, durationMs: 0, status: 'not_found', summary: 'unknown prompt' });
      throw new McpError(
        ErrorCode.InvalidParams,
        `Unknown prompt '${name}'. Call prompts/list for the prompts this server has.`,
      );
    }
    let args: Record<string, string>;
    try {
      args = checkPromptArguments(prompt, request.params.arguments);
    } catch (err) {
      record({
        kind: 'prompt',
        name: prompt.name,
        durationMs: performance.now() - started,
        status: 'invalid_params',
        summary: (err as Error).message,
      });
      throw err;
    }
    const text = prompt.render(args);
    record({
      kind: 'prompt',
      name: prompt.name,
      durationMs: performance.now() - started,
      status: 'ok',
      summary: prompt.description,
    });
    return {
      description: prompt.description,
      messages: [{ role: 'user', content: { type: 'text', text } }],
    };
  });
}
