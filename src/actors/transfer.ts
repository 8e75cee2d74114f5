/**
 * Finds the ArrayBuffers in a response that can move to the other thread instead of being copied
 * (PNG bytes, XML). Only a buffer a view owns entirely is moved: a Buffer from Node's shared slab
 * must never be transferred, it would detach the slab under other Buffers.
 */
const MIN_TRANSFER_BYTES = 64 * 1024;

export function collectTransferables(value: unknown, depth = 0, found: ArrayBuffer[] = []): ArrayBuffer[] {
  if (value === null || typeof value !== 'object' || depth > 3) {
    return found;
  }
  if (ArrayBuffer.isView(value)) {
    const buffer = value.buffer;
    if (
      buffer instanceof ArrayBuffer &&
      value.byteOffset === 0 &&
      value.byteLength === buffer.byteLength &&
      buffer.byteLength >= MIN_TRANSFER_BYTES &&
      !found.includes(buffer)
    ) {
      found.push(buffer);
    }
    return found;
  }
  if (Array.isArray(value)) {
    if (value.length <= 16) {
      for (const item of value) {
        collectTransferables(item, depth + 1, found);
      }
    }
    return found;
  }
  for (const item of Object.values(value as Record<string, unknown>)) {
    collectTransferables(item, depth + 1, found);
  }
  return found;
}
