import path from 'node:path';
import { runDemo } from '../demo/demo-run.js';
import { ensureDataDir } from '../store/data-dir.js';
import { parseCliArgs } from './args.js';
import type { CliCommand } from './command.js';

const USAGE = `Usage: droidbus demo [--out DIR] [--keep] [--json]

Walks droidbus's main job on a simulated device, the way an agent would, through a real MCP session:
a private adb server and a simulated phone, the sample Android project (written to a temporary
folder and trusted in a private droidbus data folder), then build → install → launch (with its
launch time) → read the screen → fill the login form → tap through → crash the app → read the crash
deobfuscated against the installed build → show the debug session. Nothing of yours is touched.

  --out DIR   where screenshots and summary.json go (default: demo/ in the droidbus data folder,
              ~/.droidbus/demo or $DROIDBUS_HOME/demo; never the current folder)
  --keep      keep the temporary sample project and data folder
  --json      print summary.json to stdout at the end instead of the readable walk

Exits 0 only if every step worked.`;

function painter(enabled: boolean) {
  const wrap = (code: string) => (s: string) => (enabled ? `\x1b[${code}m${s}\x1b[0m` : s);
  return { green: wrap('32'), red: wrap('31'), dim: wrap('2'), bold: wrap('1') };
}

async function run(argv: string[]): Promise<number> {
  const { values } = parseCliArgs(argv, {
    out: { type: 'string' },
    keep: { type: 'boolean' },
    json: { type: 'boolean' },
  });
  const outDir = values.out !== undefined ? path.resolve(values.out) : path.join(ensureDataDir(), 'demo');
  const c = painter(process.stdout.isTTY === true && !process.env['NO_COLOR'] && !values.json);
  const say = (line: string): void => {
    (values.json ? process.stderr : process.stdout).write(line + '\n');
  };
  say(c.bold('droidbus demo — the main job, on a simulated device'));
  const result = await runDemo({
    outDir,
    keep: values.keep === true,
    note: (line) => say(c.dim(`  ${line}`)),
    print: (step, index) => {
      const mark = step.ok ? c.green('✔') : c.red('✘');
      const tool = step.tool ? c.dim(` [${step.tool}]`) : '';
      say(`${mark} ${String(index).padStart(2)}. ${step.name}${tool} ${c.dim(`(${step.ms} ms)`)}`);
      say(`      ${step.detail}`);
    },
  });
  if (values.json) {
    process.stdout.write(JSON.stringify(result) + '\n');
  }
  say('');
  say(
    result.ok
      ? c.green(`Every step worked. Screenshots and summary.json are in ${result.outDir}`)
      : c.red(
          `The demo stopped at "${result.failedAt}". What it did is in ${path.join(result.outDir, 'summary.json')}`,
        ),
  );
  return result.ok ? 0 : 1;
}

export const command: CliCommand = {
  name: 'demo',
  summary: 'Walk the main job on a simulated device: build, install, launch, UI, crash, deobfuscation.',
  usage: USAGE,
  run,
};
