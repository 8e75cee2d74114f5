import type { ToolDefinition } from './define-tool.js';
import { annotationsFor } from './define-tool.js';
import { toolListing } from './server.js';
import { TOOLSETS, TOOLSET_NAMES } from './toolsets.js';

const KIND_MEANING = {
  R: 'read-only',
  W: 'changes state, not destructively',
  D: 'destructive or hard to reverse',
  O: 'open-world: runs project code',
} as const;

/** docs/TOOLS.md, generated from the registry (`npm run docs`); a test fails when it is stale. */
export function renderToolsMarkdown(tools: readonly ToolDefinition[]): string {
  const out: string[] = [
    '# droidbus tools',
    '',
    '<!-- Generated from the tool registry by `npm run docs`. Do not edit by hand. -->',
    '',
    `${tools.length} tools in ${TOOLSET_NAMES.length} toolsets. Serve fewer with \`droidbus mcp --toolsets core,ui\`.`,
    '',
    '| Kind | Meaning | readOnlyHint | destructiveHint | openWorldHint |',
    '|------|---------|--------------|-----------------|---------------|',
  ];
  for (const kind of ['R', 'W', 'D', 'O'] as const) {
    const a = annotationsFor(kind, '');
    out.push(
      `| ${kind} | ${KIND_MEANING[kind]} | ${a.readOnlyHint} | ${a.destructiveHint} | ${a.openWorldHint} |`,
    );
  }
  for (const toolset of TOOLSET_NAMES) {
    const inSet = tools.filter((t) => t.toolset === toolset);
    out.push('', `## \`${toolset}\` — ${TOOLSETS[toolset]}`, '');
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
  out.push('');
  return out.join('\n');
}

/** The committed snapshot of tools/list: every schema change shows up in review. */
export function renderToolsSnapshot(tools: readonly ToolDefinition[]): string {
  return JSON.stringify({ tools: tools.map(toolListing) }, null, 2) + '\n';
}
