import type { Bus } from '../../src/bus/bus.js';
import { LocalBusClient } from '../../src/bus/local-client.js';
import { createSessionState, type SessionState } from '../../src/mcp/session.js';
import { TOOLSET_NAMES } from '../../src/mcp/toolsets.js';

/**
 * An attached session pinned to /work/a with every toolset, asking `bus` as the CLI; `hostProject`
 * is what the host has open (null: nothing).
 */
export function pinnedSession(bus: Bus, hostProject: string | null = '/work/a'): SessionState {
  return createSessionState({
    project: { root: '/work/a', selectedBy: 'argument' },
    mode: { kind: 'attached', pinnedProject: '/work/a', hostProject },
    toolsets: [...TOOLSET_NAMES],
    bus: new LocalBusClient(bus, { kind: 'cli' }),
  });
}
