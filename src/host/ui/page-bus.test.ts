import { describe, expect, it } from 'vitest';
import type { BusClient } from '../../bus/client.js';
import { pageRequest, pageRequestTypes, pageTopics } from './page-bus.js';

describe("the page's bus access", () => {
  it('leaves out every request that runs work for an agent or drives a device', () => {
    const allowed = pageRequestTypes();
    for (const type of [
      'build.run',
      'device.ui_input',
      'device.send_intent',
      'device.push_file',
      'host.set_project',
      'host.session_update',
    ]) {
      expect(allowed).not.toContain(type);
    }
    expect(allowed).toContain('build.cancel');
    expect(allowed).toContain('host.trust');
  });

  it("lets the Debug sessions view read the sessions actor's sessions, and never record an agent action", () => {
    const allowed = pageRequestTypes();
    expect(allowed).toEqual(
      expect.arrayContaining(['sessions.list', 'sessions.get', 'sessions.compare', 'sessions.export']),
    );
    expect(allowed).not.toContain('sessions.agent_action');
  });

  it('streams the events its views follow, and not the actors’ internals', () => {
    const topics = pageTopics();
    expect(topics).toEqual(
      expect.arrayContaining([
        'devices.changed',
        'build.lines',
        'build.completed',
        'logcat.crash',
        'host.sessions',
      ]),
    );
    expect(topics).not.toContain('actor.state');
  });

  it('answers a refused type without asking the bus', async () => {
    let asked = 0;
    const bus = {
      request: () => {
        asked++;
        return Promise.resolve({});
      },
    } as unknown as BusClient;
    const answer = await pageRequest(bus, new Set(pageRequestTypes()), 'build.run', {});
    expect(answer).toMatchObject({ ok: false, error: { code: 'INVALID' } });
    expect(await pageRequest(bus, new Set(pageRequestTypes()), 42, {})).toMatchObject({ ok: false });
    expect(asked).toBe(0);
  });
});
