// Makes the built CLI executable so `npm install` leaves a runnable `droidbus`.
import { chmodSync, existsSync } from 'node:fs';

const cli = new URL('../dist/cli.js', import.meta.url);
if (existsSync(cli)) {
  chmodSync(cli, 0o755);
}
