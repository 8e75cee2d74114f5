/**
 * What an agent's context pays for droidbus's tools: the size of `tools/list` for the default
 * toolsets — what the model reads (name, title, description, input schema) and the whole listing
 * (output schemas too) — and the largest tools. Run: npx tsx scripts/tool-budgets.ts [--json]
 */
import { ALL_TOOLS } from '../src/mcp/registry.js';
import { toolListing } from '../src/mcp/tool-listing.js';
import { DEFAULT_TOOLSETS } from '../src/mcp/toolsets.js';

const bytes = (v: unknown): number => Buffer.byteLength(JSON.stringify(v), 'utf8');
const tools = ALL_TOOLS.filter((t) => DEFAULT_TOOLSETS.includes(t.toolset)).map(toolListing);
const rows = tools.map((t) => ({
  tool: t.name,
  model_reads: bytes({
    name: t.name,
    title: t.title,
    description: t.description,
    inputSchema: t.inputSchema,
  }),
  output_schema: t.outputSchema === undefined ? 0 : bytes(t.outputSchema),
  whole: bytes(t),
}));
const total = {
  tools: tools.length,
  model_reads_bytes: rows.reduce((a, r) => a + r.model_reads, 0),
  output_schemas_bytes: rows.reduce((a, r) => a + r.output_schema, 0),
  tools_list_bytes: bytes({ tools }),
};
if (process.argv.includes('--json')) {
  process.stdout.write(`${JSON.stringify({ total, tools: rows }, null, 2)}\n`);
} else {
  const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
  process.stdout.write(
    `tools/list, default toolsets: ${total.tools} tools, ${kb(total.tools_list_bytes)} in all; the model reads ${kb(total.model_reads_bytes)}; output schemas ${kb(total.output_schemas_bytes)}\n\nlargest (model reads / output schema):\n`,
  );
  for (const r of [...rows].sort((a, b) => b.whole - a.whole).slice(0, 15)) {
    process.stdout.write(
      `  ${r.tool.padEnd(32)} ${kb(r.model_reads).padStart(9)} ${kb(r.output_schema).padStart(9)}\n`,
    );
  }
}
