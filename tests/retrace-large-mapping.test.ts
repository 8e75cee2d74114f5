import { describe, expect, it } from 'vitest';
import { buildMappingIndex, mappingInfo, retraceTrace } from '../src/actors/retrace/index.js';
import { generateMapping, generateTrace } from './helpers/mapping-generator.js';

describe('a 20 MB mapping', () => {
  const mapping = generateMapping(20 * 1024 * 1024);
  const bytes = Buffer.from(mapping.text, 'utf8');

  it('is indexed and retraces a 60-frame trace to the original frames', () => {
    const index = buildMappingIndex(bytes);
    const info = mappingInfo(index);
    expect(info.bytes).toBeGreaterThanOrEqual(20 * 1024 * 1024);
    expect(info.classes).toBe(mapping.classes.length);
    expect(info.mapId).toBe('5b8d8d1');
    const { trace, expected } = generateTrace(mapping, 60);
    const result = retraceTrace(index, trace);
    expect(result.text).toBe(expected);
    expect(result.frames.filter((f) => f.kind === 'frame')).toHaveLength(60);
    expect(result.unmappedFrames).toBe(0);
    // Only the classes the trace touched were parsed.
    expect(index.parsed.filter((c) => c !== undefined).length).toBeLessThanOrEqual(60);
  });

  it('gives the same answer on a second, warm retrace', () => {
    const index = buildMappingIndex(bytes);
    const { trace, expected } = generateTrace(mapping, 60, 99);
    expect(retraceTrace(index, trace).text).toBe(expected);
    expect(retraceTrace(index, trace).text).toBe(expected);
  });
});
