import { describe, expect, it } from 'vitest';
import { uiStepSchema, type UiStep } from '../../bus/messages/ui.js';
import type { StepWriter } from './command.js';
import { MAESTRO_ONLY, opOf, SUPPORTED_COMMANDS, WRITTEN_STEPS, writeStep } from './index.js';
import { commandOf, FlowError } from './read.js';

const at = { appId: 'com.example.app', where: 'flow.yaml:3', schemes: [] };

function writer(): StepWriter & { notes: string[] } {
  const notes: string[] = [];
  return {
    appId: at.appId,
    secret: (field) => (field ?? 'secret').toUpperCase(),
    note: (t) => void notes.push(t),
    notes,
  };
}

/** A written command read back as the reader reads it. */
function readBack(step: UiStep) {
  const yaml = writeStep(step, writer());
  const { name, value } = commandOf(yaml, at.where);
  return { name, op: opOf(name, value, at) };
}

describe('the command registry', () => {
  it('writes every kind of recorded step but the screen the exporter asserts, each by one command', () => {
    const kinds = uiStepSchema.options.map((o) => o.shape.do.value);
    expect([...WRITTEN_STEPS].sort()).toEqual(kinds.filter((k) => k !== 'screen').sort());
  });

  it('names each command once, and never both as run and as refused', () => {
    expect(new Set(SUPPORTED_COMMANDS).size).toBe(SUPPORTED_COMMANDS.length);
    expect(SUPPORTED_COMMANDS.filter((n) => MAESTRO_ONLY.has(n))).toEqual([]);
  });

  it('reads back what it writes: a recorded step is the operation the runner performs', () => {
    expect(readBack({ do: 'tap', selector: { text: 'Save', index: 1 }, point: null, screen: null })).toEqual({
      name: 'tapOn',
      op: { op: 'tap', selector: { text: 'Save', index: 1 }, point: null, retryIfNoChange: true },
    });
    expect(
      readBack({
        do: 'tap',
        selector: null,
        point: { x: 540, y: 1200 },
        screen: { width: 1080, height: 2400 },
      }).op,
    ).toMatchObject({ op: 'tap', point: '50%,50%' });
    expect(readBack({ do: 'key', key: 'KEYCODE_BACK' })).toEqual({
      name: 'back',
      op: { op: 'key', key: 'KEYCODE_BACK' },
    });
    expect(readBack({ do: 'key', key: 'KEYCODE_ENTER' }).op).toEqual({ op: 'key', key: 'KEYCODE_ENTER' });
    expect(readBack({ do: 'launch', package: 'com.other', clear_state: true }).op).toEqual({
      op: 'launch',
      appId: 'com.other',
      clearState: true,
      stopApp: true,
    });
    expect(readBack({ do: 'stop', package: at.appId }).op).toEqual({ op: 'stop', appId: at.appId });
    expect(readBack({ do: 'erase', characters: 3 }).op).toEqual({ op: 'erase', count: 3 });
    expect(readBack({ do: 'erase', characters: null }).op).toEqual({ op: 'erase', count: 50 });
    expect(readBack({ do: 'wait', selector: { id: 'done' }, timeout_ms: 5000 }).op).toEqual({
      op: 'assert',
      selector: { id: 'done' },
      visible: true,
      timeoutMs: 5000,
    });
    expect(readBack({ do: 'assert', selector: { text: 'Gone' }, visible: false })).toEqual({
      name: 'assertNotVisible',
      op: { op: 'assert', selector: { text: 'Gone' }, visible: false, timeoutMs: null },
    });
    expect(readBack({ do: 'scroll_until', selector: { text: 'Row 40' }, direction: 'up' }).op).toMatchObject({
      op: 'scroll_until',
      direction: 'up',
    });
    expect(
      readBack({ do: 'swipe', from: { x: 10, y: 20 }, to: { x: 30, y: 40 }, screen: null, duration_ms: 250 })
        .op,
    ).toEqual({ op: 'swipe', start: '10,20', end: '30,40', durationMs: 250 });
    expect(readBack({ do: 'hide_keyboard' }).op).toEqual({ op: 'hide_keyboard' });
    expect(readBack({ do: 'open_link', url: 'https://example.com/a' }).op).toEqual({
      op: 'open_link',
      link: 'https://example.com/a',
    });
  });

  it('writes a password as its variable and a key Maestro cannot press as a note', () => {
    const w = writer();
    expect(writeStep({ do: 'type', text: null, secret: true, field: 'password' }, w)).toEqual({
      inputText: '${PASSWORD}',
    });
    expect(writeStep({ do: 'key', key: 'KEYCODE_CAMERA' }, w)).toBeNull();
    expect(w.notes).toEqual(['pressed KEYCODE_CAMERA, a key Maestro cannot press']);
  });
});

describe('longPressOn, the command added as one module (long-press-on.ts)', () => {
  it("reads tapOn's fields: an element or a point, retried when nothing changed", () => {
    expect(opOf('longPressOn', { text: '.*button.*' }, at)).toEqual({
      op: 'long_press',
      selector: { text: '.*button.*' },
      point: null,
      retryIfNoChange: true,
    });
    expect(
      opOf('longPressOn', { point: '100,200', retryTapIfNoChange: false, waitToSettleTimeoutMs: 90_000 }, at),
    ).toEqual({
      op: 'long_press',
      selector: null,
      point: '100,200',
      retryIfNoChange: false,
      settleMs: 30_000,
    });
    expect(opOf('longPressOn', 'Primary', at)).toMatchObject({ selector: { text: 'Primary' } });
  });

  it('refuses what it would not act on, by name and line', () => {
    expect(() => opOf('longPressOn', { text: 'A', repeat: 2 }, at)).toThrow(
      /^flow\.yaml:3: selector field repeat is not supported by droidbus/,
    );
    expect(() => opOf('longPressOn', { point: '100,200', waitUntilVisible: true }, at)).toThrow(FlowError);
    expect(() => opOf('longPressOn', { point: 'middle' }, at)).toThrow(
      'flow.yaml:3: point is "x,y" in pixels or "x%,y%"',
    );
    // waitUntilVisible: false is what droidbus does; true is refused.
    expect(opOf('tapOn', { text: 'A', waitUntilVisible: false }, at)).toEqual({
      op: 'tap',
      selector: { text: 'A' },
      point: null,
      retryIfNoChange: true,
    });
  });
});
