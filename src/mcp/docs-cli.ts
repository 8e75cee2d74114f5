import { readFileSync, writeFileSync } from 'node:fs';
import { withRequestTable } from '../bus/request-table.js';
import { renderToolsMarkdown, renderToolsSnapshot } from './docs.js';
import { ALL_TOOLS } from './registry.js';

// `npm run docs`: regenerates docs/TOOLS.md and the tools/list snapshot from the tool registry, and
// docs/ARCHITECTURE.md's request table from the bus registry.
const docs = new URL('../../docs/', import.meta.url);
writeFileSync(new URL('TOOLS.md', docs), renderToolsMarkdown(ALL_TOOLS));
writeFileSync(new URL('tools-list.snapshot.json', docs), renderToolsSnapshot(ALL_TOOLS));
const architecture = new URL('ARCHITECTURE.md', docs);
writeFileSync(architecture, withRequestTable(readFileSync(architecture, 'utf8')));
process.stderr.write(
  `wrote docs/TOOLS.md, docs/tools-list.snapshot.json (${ALL_TOOLS.length} tools) and ARCHITECTURE.md's request table\n`,
);
