import { writeFileSync } from 'node:fs';
import { renderToolsMarkdown, renderToolsSnapshot } from './docs.js';
import { ALL_TOOLS } from './registry.js';

// `npm run docs`: regenerates docs/TOOLS.md and the tools/list snapshot from the registry.
const docs = new URL('../../docs/', import.meta.url);
writeFileSync(new URL('TOOLS.md', docs), renderToolsMarkdown(ALL_TOOLS));
writeFileSync(new URL('tools-list.snapshot.json', docs), renderToolsSnapshot(ALL_TOOLS));
process.stderr.write(`wrote docs/TOOLS.md and docs/tools-list.snapshot.json (${ALL_TOOLS.length} tools)\n`);
