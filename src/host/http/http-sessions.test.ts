import { describe, expect, it } from 'vitest';
import { prefersEventStream } from './http-sessions.js';

describe('prefersEventStream', () => {
  it.each([
    ['application/json, text/event-stream', false],
    ['text/event-stream, application/json', false],
    ['text/event-stream, application/json;q=0.5', true],
    ['application/json;q=0.1, text/event-stream;q=0.9', true],
    ['text/event-stream', true],
    [undefined, false],
  ])('%s → %s', (accept, expected) => {
    expect(prefersEventStream(accept)).toBe(expected);
  });
});
