import { z } from 'zod';
import { defineRequest } from '../contract.js';

/** Requests every droidbus process answers: liveness and the health check. */

const javaCheck = z.object({
  ok: z.boolean(),
  java_home: z.string().nullable(),
  /**
   * Where the JDK came from, in Gradle's order: `user_gradle_properties` / `project_gradle_properties`
   * (org.gradle.java.home; the project's only when it is trusted), `java_home` (JAVA_HOME), `path`.
   */
  source: z.enum(['user_gradle_properties', 'project_gradle_properties', 'java_home', 'path']).nullable(),
  bin: z.string().nullable(),
  version: z.string().nullable(),
  major_version: z.number().int().nullable(),
  warning: z.string().nullable(),
  hint: z.string().nullable(),
});

const sdkCheck = z.object({
  ok: z.boolean(),
  path: z.string().nullable(),
  /** `ANDROID_HOME`, `ANDROID_SDK_ROOT`, `local.properties`, or `default_location`. */
  source: z.string().nullable(),
  /** Places looked at, in order, with what was wrong with each one that was not used. */
  tried: z.array(z.string()),
  hint: z.string().nullable(),
});

const toolCheck = z.object({
  ok: z.boolean(),
  path: z.string().nullable(),
  version: z.string().nullable(),
  hint: z.string().nullable(),
});

const wrapperCheck = z.object({
  ok: z.boolean(),
  path: z.string().nullable(),
  /** The Gradle version the wrapper downloads, from gradle/wrapper/gradle-wrapper.properties. */
  gradle_version: z.string().nullable(),
  hint: z.string().nullable(),
  /** The wrapper is the stand-in `droidbus sim --sample-project` writes: no real Gradle runs. */
  stand_in: z.boolean().optional(),
});

export const healthReportSchema = z.object({
  all_ok: z.boolean(),
  project_root: z.string().nullable(),
  trusted: z.boolean(),
  checks: z.object({
    java: javaCheck,
    android_sdk: sdkCheck,
    adb: toolCheck,
    gradle_wrapper: wrapperCheck,
    /** droidbus retraces in TypeScript; no SDK tool or JDK is needed. Never affects all_ok. */
    retrace: z.object({ ok: z.boolean(), engine: z.string(), hint: z.string().nullable() }),
    /**
     * Devices routed through a droidbus network capture (issue 72): `capturing` by a live droidbus,
     * or `left` by one that died — that device still points at a proxy that is gone until a
     * droidbus running while it is online gives it its setting back. Left ones fail the check.
     */
    network_routes: z.object({
      ok: z.boolean(),
      devices: z.array(
        z.object({
          serial: z.string(),
          proxy: z.string(),
          state: z.enum(['capturing', 'left']),
          previous: z.string().nullable(),
        }),
      ),
      hint: z.string().nullable(),
    }),
    /**
     * Devices whose display configuration droidbus changed (issue 74): `changed` by a live droidbus,
     * or `left` by one that died — given back when a droidbus next runs while the device is online.
     * Left ones fail the check. Absent in reports of droidbus before issue 74.
     */
    display_changes: z
      .object({
        ok: z.boolean(),
        devices: z.array(
          z.object({ serial: z.string(), settings: z.array(z.string()), state: z.enum(['changed', 'left']) }),
        ),
        hint: z.string().nullable(),
      })
      .optional(),
  }),
});
export type HealthReport = z.infer<typeof healthReportSchema>;
export type JavaCheck = z.infer<typeof javaCheck>;
export type SdkCheck = z.infer<typeof sdkCheck>;

export const systemRequests = {
  'system.ping': defineRequest({
    actor: 'system',
    request: z.object({
      echo: z.string().max(10_000).optional(),
      delay_ms: z.number().int().min(0).max(60_000).optional(),
    }),
    response: z.object({
      echo: z.string().optional(),
      pid: z.number().int(),
      thread_id: z.number().int(),
    }),
    timeoutMs: 70_000,
  }),
  'system.health': defineRequest({
    actor: 'system',
    /** The project's trust is the project actor's answer, asked by the system actor. */
    request: z.object({ project_root: z.string().nullable() }),
    response: healthReportSchema,
    timeoutMs: 30_000,
  }),
};
