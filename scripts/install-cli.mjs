// Puts `droidbus` on PATH from this checkout, the way a Node CLI is installed: `npm install -g .`,
// which links npm's global folder to this checkout (the next `npm run build` is what runs). npm's
// global prefix is used when it is yours to write (root, or a prefix you configured); otherwise
// ~/.local, whose bin folder Debian's and Ubuntu's ~/.profile put on PATH — so no sudo is needed.
// Run with `npm run install-cli` after `npm ci` (`-- --dry-run`: say where, install nothing).
// Exits 1 only when nothing could be installed.
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, realpathSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = path.join(root, 'dist', 'cli.js');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function say(line) {
  process.stderr.write(`${line}\n`);
}

/** Whether this user may create or write `dir`: its nearest existing folder is writable. */
function writable(dir) {
  let at = dir;
  while (!existsSync(at) && path.dirname(at) !== at) {
    at = path.dirname(at);
  }
  try {
    accessSync(at, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/** The folder npm would install global packages into, and whether this user may write there. */
function globalPrefix() {
  const r = spawnSync(npm, ['prefix', '-g'], { encoding: 'utf8' });
  const prefix = r.status === 0 ? r.stdout.trim() : '';
  if (prefix === '') {
    return null;
  }
  // npm writes lib/node_modules and bin under the prefix (the prefix itself on Windows).
  const dirs =
    process.platform === 'win32'
      ? [prefix]
      : [path.join(prefix, 'lib', 'node_modules'), path.join(prefix, 'bin')];
  return { prefix, ok: dirs.every(writable) };
}

/** Where `name` resolves on PATH, as `command -v` would find it, or null. */
function onPath(name) {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not in this folder
    }
  }
  return null;
}

if (!existsSync(cli)) {
  say(`install-cli: ${cli} is not built; run npm ci (or npm run build) first`);
  process.exit(1);
}

const global = globalPrefix();
const prefix = global?.ok ? global.prefix : path.join(os.homedir(), '.local');
if (!global?.ok) {
  say(
    `install-cli: npm's global folder (${global?.prefix ?? 'unknown'}) is not yours to write; installing into ${prefix}`,
  );
}
// --ignore-scripts: the checkout is built already (npm ci ran prepare); the link needs nothing more.
const args = ['install', '--global', '--prefix', prefix, '--ignore-scripts', '--no-audit', '--no-fund', root];
if (process.argv.includes('--dry-run')) {
  say(`install-cli: would run: npm ${args.join(' ')}`);
  process.exit(0);
}
mkdirSync(prefix, { recursive: true });
const r = spawnSync(npm, args, {
  stdio: ['ignore', 'ignore', 'inherit'],
});
if (r.status !== 0) {
  say(`install-cli: npm install --global --prefix ${prefix} failed (exit ${r.status ?? r.signal})`);
  process.exit(1);
}

const binDir = process.platform === 'win32' ? prefix : path.join(prefix, 'bin');
const installed = path.join(binDir, process.platform === 'win32' ? 'droidbus.cmd' : 'droidbus');
const found = onPath(process.platform === 'win32' ? 'droidbus.cmd' : 'droidbus');
if (found && realpathSync(found) === realpathSync(installed)) {
  say(`install-cli: droidbus is on PATH: ${found} → ${realpathSync(found)}`);
} else if (found) {
  say(`install-cli: installed ${installed}, but PATH finds another droidbus first: ${found}`);
} else {
  say(`install-cli: installed ${installed}; ${binDir} is not on PATH in this shell yet. Run:`);
  say(`  export PATH="${binDir}:$PATH"`);
  say(`(Debian's and Ubuntu's ~/.profile add ~/.local/bin by themselves from your next login.)`);
}
