import { z } from 'zod';

/**
 * The one JSON line each way that opens a connection to `droidbus host` before any bus traffic.
 * `droidbus mcp` sends a `session` hello (it serves one agent); `droidbus status` and the host
 * commands for its person send a `control` hello (they never count as sessions).
 */

/** The attach protocol this build speaks. A host refuses any other, naming both. */
export const ATTACH_VERSION = 1;

/** How long `droidbus mcp` waits for a host to accept before it runs standalone. */
export const ATTACH_TIMEOUT_MS = 1_500;

export const attachHelloSchema = z.object({
  attach: z.number().int(),
  /** The droidbus version of the process that connects. */
  version: z.string().min(1).max(64),
  role: z.enum(['session', 'control']).default('session'),
  /** The MCP session's id (sessions only): every request of the connection carries it as origin. */
  session_id: z.string().min(1).max(100).optional(),
  /** The project the session wants (canonical Gradle root); null follows the host's project. */
  project: z.string().min(1).max(4096).nullable().default(null),
  pid: z.number().int().positive(),
  /** How the session chose `project`. */
  selected_by: z.enum(['argument', 'working_directory']).nullable().default(null),
  /** Sent only with `--toolsets`; the host echoes what it applied. */
  toolsets: z.array(z.string().max(64)).max(16).optional(),
  client_name: z.string().max(200).nullable().default(null),
});
/** A hello as a sender writes it. */
export type AttachHello = z.input<typeof attachHelloSchema>;
/** A hello as the host reads it (defaults applied). */
export type ParsedAttachHello = z.output<typeof attachHelloSchema>;

export const attachAcceptedSchema = z.object({
  accepted: z.literal(true),
  /** The host's droidbus version. */
  version: z.string(),
  host_pid: z.number().int(),
  /** The project the host has open (what a session that follows the host works on). */
  project: z.string().nullable(),
  /** The toolsets the host applied: present exactly when the hello had toolsets. */
  toolsets: z.array(z.string()).optional(),
});
export const attachRefusedSchema = z.object({
  accepted: z.literal(false),
  reason: z.string(),
  version: z.string().optional(),
});
export const attachReplySchema = z.discriminatedUnion('accepted', [
  attachAcceptedSchema,
  attachRefusedSchema,
]);
export type AttachAccepted = z.infer<typeof attachAcceptedSchema>;
export type AttachRefused = z.infer<typeof attachRefusedSchema>;
export type AttachReply = z.infer<typeof attachReplySchema>;
