import type { ToolDefinition } from './define-tool.js';
import { annotationsFor } from './define-tool.js';
import { toolListing } from './tool-listing.js';
import { NOT_OVER_ADB } from './instructions.js';
import { DEFAULT_TOOLSETS, OPT_IN_TOOLSETS, TOOLSETS, TOOLSET_NAMES } from './toolsets.js';

const KIND_MEANING = {
  read: 'read-only',
  write: 'changes state, not destructively',
  destructive: 'destructive or hard to reverse',
  open_world: 'open-world: runs project code',
} as const;

/** docs/TOOLS.md, generated from the registry (`npm run docs`); a test fails when it is stale. */
export function renderToolsMarkdown(tools: readonly ToolDefinition[]): string {
  const out: string[] = [
    '# droidbus tools',
    '',
    '<!-- Generated from the tool registry by `npm run docs`. Do not edit by hand. -->',
    '',
    `${tools.length} tools in ${TOOLSET_NAMES.length} toolsets. Without \`--toolsets\`, \`droidbus mcp\` serves ${DEFAULT_TOOLSETS.map((t) => `\`${t}\``).join(', ')}; ${OPT_IN_TOOLSETS.map((t) => `\`${t}\``).join(', ')} are served only when \`--toolsets\` names them (\`--toolsets all\` serves everything). Serve fewer with \`droidbus mcp --toolsets core,ui\`.`,
    '',
    '| Kind | Meaning | readOnlyHint | destructiveHint | openWorldHint |',
    '|------|---------|--------------|-----------------|---------------|',
  ];
  for (const kind of ['read', 'write', 'destructive', 'open_world'] as const) {
    const a = annotationsFor(kind);
    out.push(
      `| ${kind} | ${KIND_MEANING[kind]} | ${a.readOnlyHint} | ${a.destructiveHint} | ${a.openWorldHint} |`,
    );
  }
  for (const toolset of TOOLSET_NAMES) {
    const inSet = tools.filter((t) => t.toolset === toolset);
    out.push('', `## \`${toolset}\` — ${TOOLSETS[toolset]}`, '');
    if (OPT_IN_TOOLSETS.includes(toolset)) {
      out.push(
        `Served only when \`--toolsets\` names \`${toolset}\`. The file tools reach only device folders the user allowed with \`droidbus storage allow SERIAL FOLDER\` (no tool can allow one), and host files only in \`<data dir>/exchange/\`.`,
        '',
      );
    }
    if (inSet.length === 0) {
      out.push('_No tools yet._');
      continue;
    }
    out.push('| Tool | Kind | Parameters | Description |', '|------|------|------------|-------------|');
    for (const tool of inSet) {
      const schema = toolListing(tool).inputSchema as {
        properties?: Record<string, unknown>;
        required?: string[];
      };
      const required = new Set(schema.required ?? []);
      const params = Object.keys(schema.properties ?? {})
        .map((p) => `\`${p}${required.has(p) ? '' : '?'}\``)
        .join(', ');
      out.push(
        `| \`${tool.name}\` | ${tool.kind} | ${params || '—'} | ${tool.description.replace(/\|/g, '\\|').replace(/\n/g, ' ')} |`,
      );
    }
  }
  out.push(
    '',
    '## Not available over adb',
    '',
    NOT_OVER_ADB,
    '',
    '| On-device server ability | Over adb |',
    '|---|---|',
    '| Camera photos and video | none: adb has no camera access; `screenshot` shows the screen only |',
    '| Microphone, video with audio | none |',
    '| Cloudflare / ngrok tunnels | none: remote agents reach `droidbus host` instead |',
    '',
  );
  return out.join('\n');
}

/** The committed snapshot of tools/list: every schema change shows up in review. */
export function renderToolsSnapshot(tools: readonly ToolDefinition[]): string {
  return JSON.stringify({ tools: tools.map(toolListing) }, null, 2) + '\n';
}
