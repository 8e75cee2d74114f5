/**
 * Appium as its users run it — the appium server, appium-uiautomator2-driver and webdriverio from npm,
 * pinned and installed on first use into node_modules/.cache (as bench/lib/peer.ts installs
 * mobile-mcp: they are a client we did not write, not a dependency of droidbus) — started against a
 * real adb server, with an Android SDK folder whose platform-tools/adb is the real adb.
 */
import { existsSync, mkdirSync, symlinkSync } from 'node:fs';
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { installPinned } from './npm-pinned.js';
import { freePort } from '../../src/util/free-port.js';
import { until } from './until.js';

export const APPIUM_VERSION = '3.8.0';
export const UIAUTOMATOR2_DRIVER_VERSION = '8.7.0';
export const WEBDRIVERIO_VERSION = '9.33.1';

export const APPIUM_DIR = fileURLToPath(
  new URL(
    `../../node_modules/.cache/appium-client/${APPIUM_VERSION}-${UIAUTOMATOR2_DRIVER_VERSION}-${WEBDRIVERIO_VERSION}`,
    import.meta.url,
  ),
);
const APPIUM_MAIN = path.join(APPIUM_DIR, 'node_modules/appium/index.js');
const WDIO_MAIN = path.join(APPIUM_DIR, 'node_modules/webdriverio/package.json');

/** Installs the three pinned packages into APPIUM_DIR unless they are there. */
export function installAppium(): Promise<void> {
  return installPinned(
    APPIUM_DIR,
    [
      `appium@${APPIUM_VERSION}`,
      `appium-uiautomator2-driver@${UIAUTOMATOR2_DRIVER_VERSION}`,
      `webdriverio@${WEBDRIVERIO_VERSION}`,
    ],
    [APPIUM_MAIN, WDIO_MAIN],
  );
}

/** A folder laid out as an Android SDK whose platform-tools/adb is `adb` (the real one on PATH). */
export function sdkWithAdb(dir: string, adb: string): string {
  const tools = path.join(dir, 'platform-tools');
  mkdirSync(tools, { recursive: true });
  const target = adb.includes('/') ? adb : whichSync(adb);
  symlinkSync(target, path.join(tools, 'adb'));
  return dir;
}

function whichSync(name: string): string {
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    const p = path.join(dir, name);
    if (existsSync(p)) {
      return p;
    }
  }
  throw new Error(`${name} is not on PATH`);
}

export interface AppiumServer {
  port: number;
  log(): string;
  stop(): Promise<void>;
}

/** Starts `appium server` with APPIUM_HOME at the install (its node_modules hold the driver). */
export async function startAppium(env: NodeJS.ProcessEnv): Promise<AppiumServer> {
  const port = await freePort();
  let log = '';
  const child: ChildProcess = spawn(
    process.execPath,
    [APPIUM_MAIN, 'server', '--port', String(port), '--address', '127.0.0.1', '--log-no-colors'],
    { env: { ...process.env, ...env, APPIUM_HOME: APPIUM_DIR }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  await until(
    'appium to listen',
    async () => {
      if (child.exitCode !== null) {
        throw new Error(`appium exited: ${log.slice(-1500)}`);
      }
      const r = await fetch(`http://127.0.0.1:${port}/status`, { signal: AbortSignal.timeout(1_000) }).catch(
        () => null,
      );
      return r?.ok === true ? true : undefined;
    },
    60_000,
  );
  return {
    port,
    log: () => log,
    async stop() {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5_000))]);
        if (child.exitCode === null) {
          child.kill('SIGKILL');
          await exited;
        }
      }
    },
  };
}

/** An element as webdriverio gives it (the calls the tests make). */
export interface WdioElement {
  elementId: string;
  click(): Promise<void>;
  setValue(text: string): Promise<void>;
  getText(): Promise<string>;
  getAttribute(name: string): Promise<string | null>;
  getLocation(): Promise<{ x: number; y: number }>;
  getSize(): Promise<{ width: number; height: number }>;
  isExisting(): Promise<boolean>;
}

/** A webdriverio session (the calls the tests make). */
export interface WdioBrowser {
  sessionId: string;
  capabilities: Record<string, unknown>;
  getPageSource(): Promise<string>;
  $(selector: string): Promise<WdioElement> & WdioElement;
  takeScreenshot(): Promise<string>;
  getWindowSize(): Promise<{ width: number; height: number }>;
  back(): Promise<void>;
  deleteSession(): Promise<void>;
  execute(script: string, ...args: unknown[]): Promise<unknown>;
}

/** webdriverio's `remote`, from the install. */
export async function wdioRemote(options: Record<string, unknown>): Promise<WdioBrowser> {
  const wdio = (await import(path.join(APPIUM_DIR, 'node_modules/webdriverio/build/index.js'))) as {
    remote(o: Record<string, unknown>): Promise<WdioBrowser>;
  };
  return wdio.remote(options);
}
