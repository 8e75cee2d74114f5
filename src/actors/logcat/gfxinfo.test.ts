import { describe, expect, it } from 'vitest';
import { parseGfxInfo } from './gfxinfo.js';
import { fixture } from './test-fixtures.js';

describe('dumpsys gfxinfo', () => {
  it('reads an Android 12+ dump: counts, legacy jank, percentiles, reasons, GPU, pipeline and view roots', () => {
    const g = parseGfxInfo(fixture('gfxinfo-instagram-android12.txt'), 'com.instagram.android')!;
    expect(g.pid).toBe(31185);
    expect(g.blocks[0]).toMatchObject({
      window: null,
      stats_since_ns: 314435469478872,
      frames: 51,
      janky_frames: 9,
      janky_pct: 17.65,
      janky_legacy: { frames: 13, pct: 25.49 },
      percentiles_ms: { p50: 7, p90: 48, p95: 109, p99: 300 },
      gpu_percentiles_ms: { p50: 5, p90: 7, p95: 8, p99: 8 },
      reasons: {
        missed_vsync: 7,
        high_input_latency: 83,
        slow_ui_thread: 9,
        slow_bitmap_uploads: 0,
        slow_issue_draw_commands: 2,
        frame_deadline_missed: 9,
        frame_deadline_missed_legacy: 9,
      },
    });
    expect(g.blocks).toHaveLength(1);
    expect(g.pipeline).toBe('Skia (OpenGL)');
    expect(g.view_roots).toEqual([
      {
        name: 'com.instagram.android/com.instagram.mainactivity.MainActivity/android.view.ViewRootImpl@e418670',
        visible: true,
        views: 413,
        render_nodes_kb: 594.63,
      },
      {
        name: 'KHCD.1Pc.feed_timeline/android.view.ViewRootImpl@d871fa5',
        visible: true,
        views: 1,
        render_nodes_kb: 1.23,
      },
    ]);
  });

  it('reads a dump from before Android 12: no legacy count, no deadline reason, no GPU percentiles', () => {
    const g = parseGfxInfo(fixture('gfxinfo-settings-android7-11-cut.txt'), 'com.android.settings')!;
    expect(g.blocks[0]).toMatchObject({
      frames: 105,
      janky_frames: 2,
      janky_pct: 1.9,
      janky_legacy: null,
      gpu_percentiles_ms: null,
      percentiles_ms: { p50: 5, p90: 7, p95: 9, p99: 19 },
      reasons: {
        missed_vsync: 0,
        high_input_latency: 0,
        slow_ui_thread: 2,
        slow_bitmap_uploads: 0,
        slow_issue_draw_commands: 1,
      },
    });
    expect(g.blocks[0]!.reasons).not.toHaveProperty('frame_deadline_missed');
    expect(g.view_roots).toEqual([]);
  });

  it('keeps each window block after the process one (JankTracker::dumpData prints `Window: NAME` before it)', () => {
    // The Android 12 capture's block, printed again for one of its windows as hwui does per window.
    const text = fixture('gfxinfo-instagram-android12.txt');
    const block = text.slice(text.indexOf('Stats since:'), text.indexOf('Pipeline='));
    const withWindow = text.replace(
      'Pipeline=',
      `\nWindow: com.instagram.android/com.instagram.mainactivity.MainActivity\n${block.replace('Total frames rendered: 51', 'Total frames rendered: 40')}Pipeline=`,
    );
    const g = parseGfxInfo(withWindow, 'com.instagram.android')!;
    expect(g.blocks.map((w) => [w.window, w.frames])).toEqual([
      [null, 51],
      ['com.instagram.android/com.instagram.mainactivity.MainActivity', 40],
    ]);
  });

  it('is null when the app runs no process', () => {
    expect(parseGfxInfo('No process found for: com.example.absent\n', 'com.example.absent')).toBeNull();
  });
});
