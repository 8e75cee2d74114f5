import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { GetPromptRequestSchema, ListPromptsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { INVALID_PARAMS, ProtocolError } from './protocol-error.js';
import type { RequestRecord } from './request-record.js';

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

const PACKAGE = /[A-Za-z][A-Za-z0-9_]*(\.[A-Za-z][A-Za-z0-9_]*)+/;
const SERIAL = /[A-Za-z0-9._:@\-[\]%]{1,200}/;
const TASK = /:?[A-Za-z][A-Za-z0-9_-]*(:[A-Za-z][A-Za-z0-9_-]*)*/;

/** Investigates a crash: the stack (deobfuscated when obfuscated), exits, the log around it, memory. */
export const diagnoseCrash = definePrompt({
  name: 'diagnose-crash',
  title: 'Diagnose a crash',
  description:
    "Find out why an app crashed: its crash logs and stack trace (deobfuscated with the installed build's mapping), exit reasons, the log around it, memory and package state.",
  arguments: [
    {
      name: 'package',
      description: 'The app package that crashed',
      required: true,
      pattern: PACKAGE,
      example: 'com.example.app',
    },
    {
      name: 'device_serial',
      description: 'The device it crashed on (optional)',
      required: false,
      pattern: SERIAL,
      example: 'emulator-5554',
    },
  ],
  render: (a) => {
    const serial = a['device_serial'];
    const on = serial ? ` on device ${serial}` : '';
    const onDevice = serial ? ` and \`device_serial: ${serial}\`` : '';
    return [
      `Diagnose why ${a['package']} crashed${on}. Work through these steps with the droidbus tools and explain the root cause with the evidence:`,
      `1. \`get_crash_logs\` with \`package: ${a['package']}\`${onDevice} to see the newest crashes and their crash groups (how often each happened).`,
      `2. \`get_crash_stack_trace\` with \`package: ${a['package']}\` for the full trace and its Caused by: chain. If the frames look obfuscated (short names like a.b.c, SourceFile, r8-map-id), call it again with \`retrace: true\`; read its mapping_line to see how the build was matched.`,
      `3. \`get_exit_reasons\` with \`package: ${a['package']}\`${onDevice} for crashes, ANRs and low-memory kills that never reached logcat (an inspect tool: if the server does not list it, \`get_app_runtime_state\` gives the last exit reason).`,
      `4. \`get_logcat_entries\` with \`package: ${a['package']}\` and \`min_level: W\` to read what the app logged before it died.`,
      `5. \`get_memory_info\` and \`dump_app_info\` with \`package: ${a['package']}\` when memory or the installed version may matter (inspect tools too).`,
      "Point at the source file and line to change, and say what fix you propose. If logcat was not streaming, start it with `start_logcat`: it reads what the device's log buffer still holds; reproduce the crash only if it is not there.",
    ].join('\n');
  },
});

/** Investigates stutter: measure one interaction's frames, then look for the cause. */
export const diagnoseJank = definePrompt({
  name: 'diagnose-jank',
  title: 'Diagnose jank',
  description:
    'Find out why an app stutters: measure the frames of one interaction (reset, drive the UI, read frame stats), then look at the jank reasons, memory and the log.',
  arguments: [
    {
      name: 'package',
      description: 'The app package that stutters',
      required: true,
      pattern: PACKAGE,
      example: 'com.example.app',
    },
    {
      name: 'device_serial',
      description: 'The device it stutters on (optional)',
      required: false,
      pattern: SERIAL,
      example: 'emulator-5554',
    },
  ],
  render: (a) => {
    const pkg = a['package'];
    const serial = a['device_serial'];
    const onDevice = serial ? ` and \`device_serial: ${serial}\`` : '';
    return [
      `Find out why ${pkg} stutters${serial ? ` on device ${serial}` : ''}. Measure before you explain, with the droidbus tools (get_frame_stats and get_memory_info are in the inspect toolset: if the server does not list them, ask the user to add inspect to droidbus's --toolsets):`,
      `1. \`start_logcat\`${serial ? ` with \`device_serial: ${serial}\`` : ''} if it is not streaming, and bring ${pkg} to the screen that stutters (\`launch_app\`, \`get_ui_hierarchy\`, \`ui_tap_element\`).`,
      `2. \`get_frame_stats\` with \`package: ${pkg}\`${onDevice} and \`reset: true\`: the counters start over now.`,
      '3. Drive the interaction that stutters, a few times: scroll with `ui_swipe`, tap with `ui_tap_element`, type with `ui_type_text`.',
      `4. \`get_frame_stats\` with \`package: ${pkg}\` again: frames, janky frames and %, the frame-time and GPU percentiles, and the jank reasons (slow UI thread: work on the main thread; slow bitmap uploads: large images; slow draw commands: a heavy view tree; missed deadlines).`,
      `5. \`get_logcat_entries\` with \`package: ${pkg}\` and \`query: "tag:Choreographer | tag:OpenGLRenderer"\` for skipped frames and Davey lines (frames over 700 ms), and \`get_memory_info\` with \`package: ${pkg}\` (garbage collection pauses and large heaps stutter too).`,
      'Name the likely cause with the figures, point at the code that runs on the main thread during the interaction, propose a fix, and measure again with steps 2–4 after it.',
    ].join('\n');
  },
});

/** Builds and fixes: run the task, read structured errors, fix, repeat. */
export const buildAndFix = definePrompt({
  name: 'build-and-fix',
  title: 'Build and fix',
  description:
    'Run a Gradle task and fix what fails, using the structured build errors (file, line, column).',
  arguments: [
    {
      name: 'task',
      description: 'The Gradle task (default assembleDebug)',
      required: false,
      pattern: TASK,
      example: 'assembleDebug',
    },
  ],
  render: (a) => {
    const task = a['task'] ?? 'assembleDebug';
    return [
      `Build the project with \`run_gradle_task\` (\`task: ${task}\`).`,
      "If it fails, call `get_build_errors` and fix each error at the file, line and column it names (Kotlin, javac, AAPT2 resources, R8, KSP/kapt, lint, configuration cache, duplicate classes); errors without a location keep Gradle's own message.",
      `Then run \`run_gradle_task\` with \`task: ${task}\` again, and repeat until it succeeds. Use \`get_build_log\` when you need the raw output around an error.`,
      'If the project is not trusted, droidbus refuses to run Gradle: ask the user to review the project and run `droidbus trust PATH` themselves.',
    ].join('\n');
  },
});

const VARIANT = /[a-z][A-Za-z0-9]*/;

/** Builds, installs and launches a variant on a device, through a run configuration when one fits. */
export const fullDeploy = definePrompt({
  name: 'full-deploy',
  title: 'Build, install and launch',
  description: 'Build a variant, install it on a device and launch it, reporting the launch time.',
  arguments: [
    {
      name: 'device_serial',
      description: 'The device to deploy to',
      required: true,
      pattern: SERIAL,
      example: 'emulator-5554',
    },
    {
      name: 'variant',
      description: 'The build variant (default debug)',
      required: false,
      pattern: VARIANT,
      example: 'demoDebug',
    },
    {
      name: 'package',
      description: 'The app package, when the project has several',
      required: false,
      pattern: PACKAGE,
      example: 'com.example.app',
    },
  ],
  render: (a) => {
    const serial = a['device_serial'] ?? '';
    const variant = a['variant'] ?? 'debug';
    const pkg = a['package'];
    return [
      `Deploy the ${variant} variant to ${serial} and launch it.`,
      `1. Call \`list_run_configurations\`. If one builds the ${variant} variant, call \`run_run_configuration\` with its \`name: …\` and \`device_serial: ${serial}\`: it builds, installs and launches in one step and reports the launch time. Stop here if it succeeded.`,
      `2. Otherwise build with \`run_gradle_task\` (\`task: assemble\` and \`variant: ${variant}\`); on failure read \`get_build_errors\` and fix them.`,
      `3. Find the APK with \`find_apk_path\` (\`variant: ${variant}\`).`,
      `4. Install it with \`install_apk\` (\`device_serial: ${serial}\` and the \`apk_path: …\` from step 3).`,
      `5. Launch it with \`launch_app\` (\`device_serial: ${serial}\`${pkg ? ` and \`package: ${pkg}\`` : ' and the package install_apk reported'}) and report the launch time it prints.`,
    ].join('\n');
  },
});

/** Every prompt droidbus serves. */
export const ALL_PROMPTS: readonly PromptDefinition[] = [
  diagnoseCrash,
  diagnoseJank,
  fullDeploy,
  buildAndFix,
];

/** Checks a prompts/get call's arguments; returns them, or throws invalid_params. */
export function checkPromptArguments(
  prompt: PromptDefinition,
  given: Record<string, string> | undefined,
): Record<string, string> {
  const args = given ?? {};
  const known = new Set(prompt.arguments.map((a) => a.name));
  const unknown = Object.keys(args).filter((k) => !known.has(k));
  if (unknown.length > 0) {
    throw new ProtocolError(
      INVALID_PARAMS,
      `Prompt ${prompt.name} has no argument ${unknown.map((k) => `'${k.slice(0, 100)}'`).join(', ')}; it takes ${prompt.arguments.map((a) => a.name).join(', ') || 'no arguments'}.`,
    );
  }
  const out: Record<string, string> = {};
  for (const arg of prompt.arguments) {
    const value = args[arg.name];
    if (value === undefined || value === '') {
      if (arg.required) {
        throw new ProtocolError(
          INVALID_PARAMS,
          `Prompt ${prompt.name} needs the argument '${arg.name}': ${arg.description}`,
        );
      }
      continue;
    }
    if (value.length > MAX_ARGUMENT_LENGTH) {
      throw new ProtocolError(
        INVALID_PARAMS,
        `Prompt ${prompt.name}: '${arg.name}' is longer than ${MAX_ARGUMENT_LENGTH} characters.`,
      );
    }
    if (arg.pattern && !new RegExp(`^(?:${arg.pattern.source})$`, arg.pattern.flags).test(value)) {
      throw new ProtocolError(
        INVALID_PARAMS,
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
      throw new ProtocolError(
        INVALID_PARAMS,
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
