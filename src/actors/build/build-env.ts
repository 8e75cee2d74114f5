/**
 * The environment a build runs with. JAVA_HOME is chosen the way run_health_check reports it
 * (checkJava: the user's gradle.properties, the trusted project's gradle.properties, JAVA_HOME, then
 * java on PATH), so the JDK the health check shows is the one Gradle gets. ANDROID_HOME is set
 * only when neither ANDROID_HOME nor ANDROID_SDK_ROOT is, and an SDK sits in a default location:
 * a trusted project's local.properties is read by Gradle itself. Builds run only for trusted
 * projects, so an untrusted project's properties never choose a path here.
 */
import { locateSdk } from '../../adb/sdk.js';
import type { JavaCheck } from '../../bus/messages/system.js';
import { checkJava } from '../system/health.js';

/** `java -version` is probed at most this often per project. */
const JAVA_CACHE_MS = 30_000;

const javaCache = new Map<string, { at: number; java: Promise<JavaCheck> }>();

function cachedJava(root: string): Promise<JavaCheck> {
  const hit = javaCache.get(root);
  if (hit && Date.now() - hit.at < JAVA_CACHE_MS) {
    return hit.java;
  }
  const java = checkJava(root, true);
  javaCache.set(root, { at: Date.now(), java });
  return java;
}

export interface BuildEnv {
  env: NodeJS.ProcessEnv;
  /** The JAVA_HOME the build gets; null when it uses the java on PATH (or none was found). */
  javaHome: string | null;
  java: JavaCheck;
}

/** The environment for a build of the trusted project at `root`. */
export async function buildEnv(root: string): Promise<BuildEnv> {
  const java = await cachedJava(root);
  const env: NodeJS.ProcessEnv = { ...process.env };
  let javaHome: string | null = null;
  if (java.bin !== null && java.java_home !== null && java.source !== 'path') {
    javaHome = java.java_home;
    env['JAVA_HOME'] = javaHome;
  }
  if (!env['ANDROID_HOME'] && !env['ANDROID_SDK_ROOT']) {
    const sdk = locateSdk(root, true);
    if (sdk.path !== null && sdk.source === 'default_location') {
      env['ANDROID_HOME'] = sdk.path;
    }
  }
  return { env, javaHome, java };
}
