import type { ResponseOf } from './api';

type Origin = ResponseOf<'build.history'>['records'][number]['origin'];

/** Who did something, in words: "agent Claude Code (session 1a2b…)", "you (the host's user)". */
export function originLabel(origin: Origin | null | undefined): string {
  if (!origin) {
    return '—';
  }
  switch (origin.kind) {
    case 'agent':
      return `agent ${origin.client_name ?? 'unnamed client'} (session ${origin.session_id.slice(0, 8)}${origin.standalone ? ', standalone' : ''})`;
    case 'host':
      return "you (the host's user)";
    case 'host_quit':
      return 'the host quitting';
    case 'cli':
      return 'the droidbus CLI';
    case 'actor':
      return `droidbus (${origin.address})`;
  }
}

/** 1234 → "1.2 s", 65000 → "1 min 5 s". */
export function duration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined) {
    return '—';
  }
  if (ms < 1000) {
    return `${Math.round(ms)} ms`;
  }
  if (ms < 60_000) {
    return `${(ms / 1000).toFixed(1)} s`;
  }
  const min = Math.floor(ms / 60_000);
  return `${min} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** An ISO time or epoch ms as the local time of day (and date when not today). */
export function when(t: string | number | null | undefined): string {
  if (t === null || t === undefined || t === '') {
    return '—';
  }
  const d = new Date(t);
  if (Number.isNaN(d.getTime())) {
    return String(t);
  }
  const today = new Date().toDateString() === d.toDateString();
  return today ? d.toLocaleTimeString() : d.toLocaleString();
}

/** "3 s ago", "5 min ago". */
export function ago(t: string | number): string {
  const ms = Date.now() - new Date(t).getTime();
  if (ms < 60_000) {
    return `${Math.max(0, Math.round(ms / 1000))} s ago`;
  }
  if (ms < 3_600_000) {
    return `${Math.round(ms / 60_000)} min ago`;
  }
  return `${Math.round(ms / 3_600_000)} h ago`;
}

/** The last part of a path, for narrow columns (the full path goes in a title). */
export function basename(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? p;
}
