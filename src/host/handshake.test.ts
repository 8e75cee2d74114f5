import { describe, expect, it } from 'vitest';
import { decideAttach } from './handshake.js';
import type { AttachContext } from './handshake.js';

const ctx = (over: Partial<AttachContext> = {}): AttachContext => ({
  version: '1.2.0',
  hostPid: 4242,
  project: '/work/app',
  sessionCount: 0,
  maxSessions: 16,
  toolsets: ['core', 'ui', 'device-admin'],
  canonical: (p) => p.replace(/\/+$/, ''),
  ...over,
});
const hello = (over: Record<string, unknown> = {}) => ({
  attach: 1,
  version: '1.2.0',
  session_id: 'abc',
  project: null,
  pid: 77,
  selected_by: null,
  ...over,
});

describe('the attach rules', () => {
  it('accepts a session that follows the host and answers with the host project and version', () => {
    const d = decideAttach(hello(), ctx());
    expect(d).toMatchObject({
      accept: true,
      reply: { accepted: true, version: '1.2.0', host_pid: 4242, project: '/work/app' },
    });
    expect(d.reply).not.toHaveProperty('toolsets');
  });

  it('pins a session whose project is the host project, comparing canonical paths', () => {
    const d = decideAttach(hello({ project: '/work/app/', selected_by: 'argument' }), ctx());
    expect(d.accept).toBe(true);
    expect(d.accept && d.hello.project).toBe('/work/app');
  });

  it('refuses another project, naming the host project and that it will not switch for an agent', () => {
    const d = decideAttach(hello({ project: '/work/other', selected_by: 'argument' }), ctx());
    expect(d.accept).toBe(false);
    expect(d.reply).toMatchObject({ accepted: false, version: '1.2.0' });
    const reason = (d.reply as { reason: string }).reason;
    expect(reason).toContain('has /work/app open, not /work/other');
    expect(reason).toContain('never changes its project for an agent');
  });

  it('refuses a project when the host has none open, saying so', () => {
    const d = decideAttach(hello({ project: '/work/app' }), ctx({ project: null }));
    expect((d.reply as { reason: string }).reason).toContain('has no project open');
  });

  it('refuses an unknown attach version naming both versions', () => {
    const d = decideAttach(hello({ attach: 2, version: '2.0.0' }), ctx());
    const reason = (d.reply as { reason: string }).reason;
    expect(reason).toContain('attach version 1');
    expect(reason).toContain('attach version 2');
    expect(reason).toContain('1.2.0');
    expect(reason).toContain('2.0.0');
  });

  it('refuses the session past the limit, but never a control connection', () => {
    const full = ctx({ sessionCount: 16 });
    expect((decideAttach(hello(), full).reply as { reason: string }).reason).toContain(
      'already serves 16 sessions',
    );
    expect(decideAttach({ attach: 1, version: '1.2.0', role: 'control', pid: 5 }, full).accept).toBe(true);
  });

  it('applies known toolsets in canonical order and refuses an unknown one', () => {
    const ok = decideAttach(hello({ toolsets: ['ui', 'core'] }), ctx());
    expect(ok.reply).toMatchObject({ accepted: true, toolsets: ['core', 'ui'] });
    const bad = decideAttach(hello({ toolsets: ['core', 'bogus'] }), ctx());
    expect((bad.reply as { reason: string }).reason).toContain("unknown toolset 'bogus'");
  });

  it('refuses what is not an attach request, or a session without its id', () => {
    expect(decideAttach('hi', ctx()).accept).toBe(false);
    expect(decideAttach({ hello: 1 }, ctx()).accept).toBe(false);
    expect(decideAttach(hello({ pid: 'x' }), ctx()).reply).toMatchObject({
      reason: expect.stringContaining('malformed'),
    });
    expect(
      (decideAttach(hello({ session_id: undefined }), ctx()).reply as { reason: string }).reason,
    ).toContain('session_id');
  });
});
