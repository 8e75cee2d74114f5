import type { z } from 'zod';
import type { EventDef, RequestDef } from './contract.js';
import { appEvents } from './messages/app-events.js';
import { devicesEvents, devicesRequests } from './messages/devices.js';
import { hostEvents, hostRequests } from './messages/host.js';
import { hostPageEvents, hostPageRequests } from './messages/host-page.js';
import { projectRequests } from './messages/project.js';
import { retraceRequests } from './messages/retrace.js';
import { systemRequests } from './messages/system.js';
import { uiRequests } from './messages/ui.js';
import { extrasRequests } from './messages/extras.js';
import { coreEvents } from './messages/events.js';
import { appRequests } from './messages/app.js';
import { logcatEvents, logcatRequests } from './messages/logcat.js';
import { buildEvents, buildRequests } from './messages/build.js';
import { adminRequests } from './messages/admin.js';
import { sessionsRequests } from './messages/sessions.js';
import { runRequests } from './messages/run.js';
import { helperRequests } from './messages/helper.js';
import { flowsRequests } from './messages/flows.js';
import { networkEvents, networkRequests } from './messages/network.js';
import { webRequests } from './messages/web.js';
import { deviceConfigRequests, layoutRequests } from './messages/device-config.js';

/** Every request type of the bus. Add a domain's requests from its own file under messages/. */
export const REQUESTS = {
  ...systemRequests,
  ...projectRequests,
  ...retraceRequests,
  ...devicesRequests,
  ...uiRequests,
  ...hostRequests,
  ...hostPageRequests,
  ...logcatRequests,
  ...appRequests,
  ...buildRequests,
  ...extrasRequests,
  ...adminRequests,
  ...sessionsRequests,
  ...runRequests,
  ...helperRequests,
  ...flowsRequests,
  ...networkRequests,
  ...webRequests,
  ...deviceConfigRequests,
  ...layoutRequests,
} satisfies Record<string, RequestDef>;

/** Every event topic of the bus. */
export const EVENTS = {
  ...coreEvents,
  ...devicesEvents,
  ...appEvents,
  ...hostEvents,
  ...hostPageEvents,
  ...logcatEvents,
  ...buildEvents,
  ...networkEvents,
} satisfies Record<string, EventDef>;

export type RequestType = keyof typeof REQUESTS;
/** A request's payload as a sender writes it (defaults may be left out). */
export type RequestOf<T extends RequestType> = z.input<(typeof REQUESTS)[T]['request']>;
/** A request's payload as the handler receives it: validated, defaults applied. */
export type PayloadOf<T extends RequestType> = z.output<(typeof REQUESTS)[T]['request']>;
export type ResponseOf<T extends RequestType> = z.output<(typeof REQUESTS)[T]['response']>;
export type EventTopic = keyof typeof EVENTS;
export type EventOf<E extends EventTopic> = z.output<(typeof EVENTS)[E]['payload']>;

/** The request types an actor kind answers. */
export type RequestTypesOf<K extends string> = {
  [T in RequestType]: (typeof REQUESTS)[T]['actor'] extends K ? T : never;
}[RequestType];

/** True when `type` names a request type of the registry. */
export function isRequestType(type: string): type is RequestType {
  return Object.prototype.hasOwnProperty.call(REQUESTS, type);
}

/** True when `topic` names an event topic of the registry. */
export function isEventTopic(topic: string): topic is EventTopic {
  return Object.prototype.hasOwnProperty.call(EVENTS, topic);
}

/** The actor address a request goes to: the kind, plus `/key` for kinds with instances. */
export function addressOf(type: RequestType, payload: unknown): string {
  const def: RequestDef = REQUESTS[type];
  return def.key ? `${def.actor}/${def.key(payload)}` : def.actor;
}
