// Builds dist/native/peercred.node (native/peercred.c): the peer-uid check of `droidbus host`.
// Optional: it needs a C compiler (cc, or $CC) and the headers of the Node.js running this script;
// when either is missing it prints why and exits 0, and the host falls back to the socket's mode.
// It compiles directly rather than through node-gyp: one C file, no Python or Makefiles, and the
// headers come from the installed Node.js instead of a download.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const source = path.join(root, 'native', 'peercred.c');
const outDir = path.join(root, 'dist', 'native');
const out = path.join(outDir, 'peercred.node');

function skip(reason) {
  process.stderr.write(
    `droidbus: not building the peer-credential helper (${reason}); the host will rely on its socket's 0600 mode.\n`,
  );
  process.exit(0);
}

if (process.platform === 'win32') {
  process.exit(0); // Named pipes: no unix peer credentials to read.
}
const prefixes = [
  path.resolve(path.dirname(process.execPath), '..'),
  process.config?.variables?.node_prefix,
].filter(Boolean);
const include = prefixes
  .map((prefix) => path.join(prefix, 'include', 'node'))
  .find((dir) => existsSync(path.join(dir, 'node_api.h')));
if (!include) {
  skip(`no Node.js headers (node_api.h) under ${prefixes.join(' or ')}`);
}
const cc = process.env.CC || 'cc';
const linkFlags = process.platform === 'darwin' ? ['-bundle', '-undefined', 'dynamic_lookup'] : ['-shared'];
mkdirSync(outDir, { recursive: true });
const tmp = `${out}.${process.pid}.tmp`;
const result = spawnSync(cc, ['-O2', '-fPIC', '-Wall', '-I', include, ...linkFlags, source, '-o', tmp], {
  stdio: ['ignore', 'inherit', 'inherit'],
  timeout: 120_000,
});
if (result.error || result.status !== 0) {
  rmSync(tmp, { force: true });
  skip(result.error ? `${cc}: ${result.error.message}` : `${cc} exited with status ${result.status}`);
}
renameSync(tmp, out);
