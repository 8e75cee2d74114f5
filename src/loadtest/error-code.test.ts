import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { codeOfThrown, codeOfToolText } from './error-code.js';

describe('error codes of failed tool calls', () => {
  it('reads the bus code back from the sentence src/mcp/server.ts gives each one', () => {
    expect(
      codeOfToolText(
        'the device/127.0.0.1:5555 actor is busy (64 requests waiting); try again shortly. Try again in a moment.',
      ),
    ).toBe('BUSY');
    expect(
      codeOfToolText(
        'device 127.0.0.1:5555 is busy with a UI Automator request from another droidbus process (pid 42); try again when it is done',
      ),
    ).toBe('BUSY');
    expect(
      codeOfToolText(
        'device.ui_hierarchy did not finish before its deadline. The device or process may be stuck; check it with list_devices and try again.',
      ),
    ).toBe('TIMEOUT');
    expect(codeOfToolText('Cancelled: cancelled by the client')).toBe('CANCELLED');
    expect(
      codeOfToolText(
        'the screen changed since it was read (expected screen_hash 0123456789abcdef, it is now fedcba9876543210); read it again',
      ),
    ).toBe('SCREEN_CHANGED');
    expect(
      codeOfToolText(
        'device 127.0.0.1:5555 is no longer connected. Call list_devices to see which devices are online.',
      ),
    ).toBe('DEVICE_OFFLINE');
    expect(
      codeOfToolText(
        'worker thread devices#0 was terminated on request (a fault drill), so droidbus replaced its worker thread while device/127.0.0.1:5555 handled device.ui_hierarchy; droidbus restarted it — try again',
      ),
    ).toBe('CRASHED');
    expect(
      codeOfToolText(
        'the droidbus host went away before answering; this session (--attach-only) waits up to 60 s for a droidbus host to come back — call the tool again in a few seconds',
      ),
    ).toBe('UNAVAILABLE');
    expect(codeOfToolText('No element matches text="Sign in".')).toBe('TOOL_ERROR');
  });

  it('names JSON-RPC errors by their meaning', () => {
    expect(codeOfThrown(new McpError(ErrorCode.InvalidParams, 'bad'))).toBe('invalid_params');
    expect(codeOfThrown(new McpError(ErrorCode.InternalError, 'bug'))).toBe('internal_error');
    expect(codeOfThrown(new McpError(ErrorCode.RequestTimeout, 'slow'))).toBe('request_timeout');
    expect(codeOfThrown(new Error('socket hang up'))).toBe('transport_error');
  });
});
