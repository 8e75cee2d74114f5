import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/paths.js';
import { runCli } from '../helpers/run-cli.js';

// `droidbus demo` is the README's first command: it must work on a fresh machine, end to end.

const out = tempDir('droidbus-demo-test-');
afterAll(() => out.remove());

describe('droidbus demo', () => {
  it('walks every step of the main job on a simulated device and exits 0', async () => {
    const result = await runCli(['demo', '--out', out.dir, '--json'], { env: { NO_COLOR: '1' } });
    const summary = JSON.parse(result.stdout.trim().split('\n').at(-1)!) as {
      ok: boolean;
      failedAt: string | null;
      steps: { name: string; ok: boolean; detail: string; tool?: string }[];
    };
    expect(summary.failedAt, result.stderr).toBeNull();
    expect(result.code).toBe(0);
    expect(summary.ok).toBe(true);
    const tools = summary.steps.map((s) => s.tool).filter(Boolean);
    for (const tool of [
      'run_gradle_task',
      'install_apk',
      'launch_app',
      'list_clickable_elements',
      'ui_fill_input',
      'ui_tap_element',
      'get_crash_stack_trace',
      'get_debug_session',
      'export_test',
      'run_flow',
    ]) {
      expect(tools).toContain(tool);
    }
    // install_apk and launch_app ran without device_serial: the only online device.
    const install = summary.steps.find((s) => s.tool === 'install_apk')!;
    expect(install.detail).toMatch(/^Recorded com\.droidbus\.sample\.demo .* on 127\.0\.0\.1:\d+: sha256 /);
    const launch = summary.steps.find((s) => s.tool === 'launch_app')!;
    expect(launch.detail).toMatch(/^Launch time: \d+ ms/);
    const crash = summary.steps.find((s) => s.tool === 'get_crash_stack_trace')!;
    expect(crash.detail).toContain('CartRepository.totalFor(CartRepository.kt:25)');
    const session = summary.steps.find((s) => s.tool === 'get_debug_session')!;
    expect(session.detail).toMatch(/install.*launch.*crash/);
    // Saved as the screenshot answered them: JPEG, the default, named .jpg.
    for (const file of ['1-login.jpg', '2-home.jpg']) {
      const meta = await sharp(readFileSync(path.join(out.dir, file))).metadata();
      expect(meta.format).toBe('jpeg');
    }
    // The session as a Maestro flow, replayed on the device; the typed password is not in it.
    const flow = readFileSync(path.join(out.dir, 'flow.yaml'), 'utf8');
    expect(flow).toContain('inputText: ${PASSWORD}');
    expect(flow).not.toContain('analytical engine');
    expect(summary.steps.find((s) => s.tool === 'run_flow')!.detail).toMatch(/1 passed, 0 failed/);
    expect(existsSync(path.join(out.dir, 'summary.json'))).toBe(true);
    expect(readFileSync(path.join(out.dir, 'crash-retraced.txt'), 'utf8')).toContain(
      'Deobfuscated with the R8 mapping',
    );
  });
});
