import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { runCli } from './run-cli.js';
import { lastRead } from './until.js';

/** One build record as build-history.json keeps it (the fields tests look at). */
export interface HistoryRecord {
  id: string;
  project_root: string;
  task: string;
  variant: string | null;
  result: 'success' | 'failed' | 'cancelled';
  reason: string | null;
  origin: { kind: string; session_id?: string; client_name?: string | null; standalone?: boolean };
  cancelled_by: { kind: string; session_id?: string; client_name?: string | null } | null;
  pid: number;
  duration_ms: number;
  apks: { path: string; sha256: string; size: number; package: string | null; variant: string | null }[];
  diagnostics: { errors: number; warnings: number };
}

/** Writes the sample Android project with the built CLI (`droidbus sim --sample-project DIR`). */
export async function writeSample(dir: string, home: string): Promise<void> {
  const r = await runCli(['sim', '--sample-project', dir], { env: { DROIDBUS_HOME: home } });
  expect(r.code, r.stderr).toBe(0);
}

/** `droidbus trust DIR` / `droidbus untrust DIR` with the built CLI. */
export async function setTrust(dir: string, home: string, trusted: boolean): Promise<void> {
  const r = await runCli([trusted ? 'trust' : 'untrust', dir], { env: { DROIDBUS_HOME: home } });
  expect(r.code, r.stderr).toBe(0);
}

/** The records of build-history.json, oldest first (none when it does not exist yet). */
export function readHistory(home: string): HistoryRecord[] {
  try {
    return (
      JSON.parse(readFileSync(path.join(home, 'build-history.json'), 'utf8')) as { builds: HistoryRecord[] }
    ).builds;
  } catch {
    return [];
  }
}

/** Polls the history until `pick` finds a record, or fails after `timeoutMs`. */
export async function waitForRecord(
  home: string,
  pick: (r: HistoryRecord) => boolean,
  timeoutMs = 20_000,
): Promise<HistoryRecord> {
  const records = await lastRead(
    () => readHistory(home),
    (r) => r.some(pick),
    timeoutMs,
  );
  const hit = records.find(pick);
  if (!hit) {
    throw new Error(`no matching build record within ${timeoutMs} ms: ${JSON.stringify(records)}`);
  }
  return hit;
}

/** sha256 of a file, hex. */
export function sha256Of(file: string): string {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The text of a tool result. */
export function textOf(result: unknown): string {
  const content = (result as CallToolResult).content;
  return content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
