import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { UiStep } from '../bus/messages/ui.js';
import type { RequestType } from '../bus/registry.js';
import type { BusClient } from '../bus/client.js';
import type { Progress } from '../bus/envelope.js';
import type { Origin } from '../bus/origin.js';
import type { Toolset } from './toolsets.js';
import type { SessionState } from './session.js';

/**
 * A tool's kind, from which its annotations are derived (never typed by hand): `read` only reads;
 * `write` changes state, not destructively; `destructive` is destructive or hard to reverse;
 * `open_world` runs arbitrary project code.
 */
export type ToolKind = 'read' | 'write' | 'destructive' | 'open_world';

export interface ToolAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint?: boolean;
  openWorldHint: boolean;
}

/** The annotations of a kind: all three hints are always set (the title is the tool's own, not repeated). */
export function annotationsFor(kind: ToolKind): ToolAnnotations {
  switch (kind) {
    case 'read':
      return { readOnlyHint: true, destructiveHint: false, openWorldHint: false };
    case 'write':
      return { readOnlyHint: false, destructiveHint: false, openWorldHint: false };
    case 'destructive':
      return { readOnlyHint: false, destructiveHint: true, openWorldHint: false };
    case 'open_world':
      return { readOnlyHint: false, destructiveHint: true, openWorldHint: true };
    default: {
      const never: never = kind;
      throw new Error(`unknown tool kind ${String(never)}`);
    }
  }
}

/** What a tool handler can use. */
export interface ToolContext {
  /** The bus; it may change under a session (host gone → local), so take it from here on every call. */
  readonly bus: BusClient;
  readonly session: SessionState;
  /** Who is calling, for records (builds, agent actions). */
  readonly origin: Origin;
  /** Fires when the client cancels the request (notifications/cancelled) or goes away. */
  readonly signal: AbortSignal;
  /**
   * Fires only when the client cancels this request, not when it disconnects: work that must
   * outlive its client (a Gradle build is finished and recorded) follows this one.
   */
  readonly cancelSignal: AbortSignal;
  /** Sends notifications/progress when the client asked for progress; otherwise does nothing. */
  progress(progress: Progress): void;
  /** True when the client sent a progressToken. */
  readonly wantsProgress: boolean;
  /**
   * Calls another tool this session serves, by name, through the same checks a tools/call gets (its
   * arguments, trust, the activity log): what `batch` runs its steps with. Never throws for the
   * step's own failure; that is the result's `isError`. `defaults` fill the arguments the tool
   * takes and `args` leave out (a batch's device_serial). `kind` is the tool's (null when none ran).
   */
  callTool(
    name: string,
    args: Record<string, unknown>,
    defaults?: Record<string, unknown>,
  ): Promise<{ result: CallToolResult; kind: ToolKind | null }>;
}

/** An image or other content block placed before the text of a result. */
export type ExtraContent =
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'text'; text: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text: string } }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; blob: string } };

/** What a handler returns: a short text, and the structured value when the tool declares an output schema. */
export interface ToolResult {
  text: string;
  structured?: Record<string, unknown>;
  /** Content placed before the text (a screenshot's PNG). */
  before?: ExtraContent[];
  /**
   * The characters this answer was fitted to when the caller asked for more than the default
   * (at most the tool's `maxAnswerChars`); the server's cut applies past it instead of TEXT_BUDGET.
   */
  answerChars?: number;
  /**
   * What the call did to the device's UI in Maestro's terms (src/store/formats/ui-step.ts): kept
   * by the debug sessions for export_test, never sent to the client.
   */
  steps?: UiStep[];
}

export interface ToolDefinition<
  I extends z.ZodObject = z.ZodObject,
  O extends z.ZodObject | undefined = z.ZodObject | undefined,
> {
  name: string;
  toolset: Toolset;
  kind: ToolKind;
  title: string;
  description: string;
  input: I;
  output?: O;
  /** Keeps working in a pinned session whose project the host closed (device, UI, logcat, health tools). */
  projectIndependent?: boolean;
  /**
   * Tools whose calls still running in the same session this one waits for before it reads (at
   * most IN_FLIGHT_WAIT_MS): a crash read sent beside start_logcat — an agent's parallel tool
   * calls — answers from the stream start_logcat opens, not "no stream runs".
   */
  after?: readonly string[];
  /**
   * Most characters an answer may reach when the caller explicitly asks for more (a larger count,
   * an inline limit), declared to clients in the listing's `_meta` (`anthropic/maxResultSizeChars`)
   * so they keep it inline. Without it every answer stays within TEXT_BUDGET.
   */
  maxAnswerChars?: number;
  /**
   * The bus request whose response the output is built from (`responseOf`, `.pick`, `.extend`, or
   * one of its object fields flattened); null when the output is no one request's (`batch`). The
   * output guard (tests/guards/tool-outputs.test.ts) checks every tool by it.
   */
  answers?: RequestType | null;
  /**
   * Output fields that reshape their bus response's field on purpose (rows without empty fields):
   * the one exception to building the output schema from the response (tests/guards/tool-outputs).
   */
  reshaped?: readonly string[];
  /** `device`: declared with defineDeviceTool (device_serial resolved before the handler runs). */
  family?: 'device';
  /** False for a tool that cannot run as another tool's step (`batch` itself). */
  nests?: false;
  handle(args: z.output<I>, ctx: ToolContext): Promise<ToolResult>;
}

/** A tool as it is declared: `input` may be left out by a tool that takes no arguments. */
export type ToolSpec<I extends z.ZodObject, O extends z.ZodObject | undefined> = Omit<
  ToolDefinition<I, O>,
  'input'
> & { input?: I };

/** The input of a tool that takes no arguments. */
export const NO_ARGUMENTS = z.object({});

/** Declares a tool. Tools are data: the registry collects them and the server registers them in one place. */
export function defineTool<
  I extends z.ZodObject = typeof NO_ARGUMENTS,
  O extends z.ZodObject | undefined = undefined,
>(def: ToolSpec<I, O>): ToolDefinition<I, O> {
  // Without `input`, I is its default: the NO_ARGUMENTS schema itself.
  return { ...def, input: def.input ?? (NO_ARGUMENTS as I) };
}

/**
 * The stable codes of tool errors, in `structuredContent.error.code` of every `isError` result
 * (MCP 2025-11-25: argument and rule failures are tool execution errors the model reads, not
 * protocol errors). The text says what was wrong and what to do; the code is for clients.
 */
export const TOOL_ERROR_CODES = [
  /** An argument is malformed, out of range, or breaks a rule between arguments. */
  'invalid_argument',
  /** The project's build scripts may not run: the user has not trusted the folder. */
  'untrusted_project',
  /** A package outside the open project's application ids, without allow_foreign_package. */
  'foreign_package',
  /** A Gradle task the task policy refuses (publishing, uploads, signing…). */
  'blocked_task',
  /** The tool needs an open Android project and none is selected. */
  'no_project',
  /** A pinned session's project was closed on the host. */
  'project_closed',
  'not_found',
  'busy',
  'timeout',
  'cancelled',
  'device_offline',
  'unavailable',
  /** The work ran and failed (a build, a test run, a device command). */
  'failed',
  /** A UI action's expect_screen_hash is not the screen now: nothing was done; read it again. */
  'screen_changed',
  'crashed',
] as const;
export type ToolErrorCode = (typeof TOOL_ERROR_CODES)[number];

/** A call that cannot be served: a tool result with `isError: true` and a stable code. */
export class ToolError extends Error {
  constructor(
    message: string,
    /** The tool's own result shape, when the failed work still has one (a failed build's errors). */
    readonly structured?: Record<string, unknown>,
    readonly code: ToolErrorCode = 'failed',
  ) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Arguments that passed the schema but break a rule (cross-field, scope, trust): refused before any work. */
export class ArgumentError extends ToolError {
  constructor(
    message: string,
    code:
      | 'invalid_argument'
      | 'untrusted_project'
      | 'foreign_package'
      | 'blocked_task'
      | 'no_project' = 'invalid_argument',
  ) {
    super(message, undefined, code);
    this.name = 'ArgumentError';
  }
}
