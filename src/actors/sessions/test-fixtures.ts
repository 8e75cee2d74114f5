/** Test helper: an install record and the agent that made it, as the sessions' unit tests use them. */
import type { InstallRecord } from '../../bus/messages/app-events.js';

export const T0 = Date.parse('2025-03-01T10:00:00Z');

export const AGENT = {
  kind: 'agent' as const,
  session_id: 'abcdef0123456789',
  client_name: 'claude-code',
  standalone: true,
};

/** An install of com.example.app on emulator-5554 at T0 by AGENT, with `over` applied. */
export function install(over: Partial<InstallRecord> = {}): InstallRecord {
  return {
    id: 'i1',
    device: 'emulator-5554',
    package: 'com.example.app',
    apk_path: '/p/app/build/outputs/apk/debug/app-debug.apk',
    apk_sha256: 'a'.repeat(64),
    apk_size: 1234,
    version_code: 7,
    version_name: '1.7',
    build_id: null,
    module: ':app',
    variant: 'debug',
    project_root: '/p',
    installed_at: new Date(T0).toISOString(),
    device_last_update_ms: T0,
    installed_by: AGENT,
    recorded_by: 'standalone',
    ...over,
  };
}
