// Makes the built CLI executable so `npm install` leaves a runnable `droidbus`, and builds the
// optional native peer-credential helper (scripts/build-native.mjs never fails the build).
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  chmodSync(cli, 0o755);
}
spawnSync(process.execPath, [fileURLToPath(new URL('./build-native.mjs', import.meta.url))], {
  stdio: 'inherit',
});
