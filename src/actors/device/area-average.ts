/**
 * Exact area-average (box filter) downscaling of interleaved 8-bit pixels: every output pixel is
 * the mean of the input area it covers, partial pixels weighted by the covered fraction. This is
 * what "area-averaged" means for a screenshot: no ringing around text edges (the Lanczos and cubic
 * kernels of libvips overshoot there), no aliasing (nearest), and no blur beyond the pixel's own
 * footprint (libvips' linear kernel is a tent twice that wide). sharp 0.35 offers no box kernel for
 * fractional factors, so the filter runs here, separably (rows, then columns), on typed arrays.
 */

interface Taps {
  start: Int32Array;
  count: Int32Array;
  weights: Float32Array;
  /** Offset of each output sample's first weight in `weights`. */
  offset: Int32Array;
}

/** For each output sample, the input samples it covers and their weights (summing to 1). */
function taps(inSize: number, outSize: number): Taps {
  const ratio = inSize / outSize;
  const start = new Int32Array(outSize);
  const count = new Int32Array(outSize);
  const offset = new Int32Array(outSize);
  const list: number[] = [];
  for (let o = 0; o < outSize; o++) {
    const a = o * ratio;
    const b = Math.min(inSize, a + ratio);
    const first = Math.floor(a);
    const last = Math.min(inSize - 1, Math.ceil(b) - 1);
    start[o] = first;
    offset[o] = list.length;
    let n = 0;
    for (let i = first; i <= last; i++) {
      const w = (Math.min(i + 1, b) - Math.max(i, a)) / ratio;
      if (w > 0) {
        list.push(w);
        n++;
      } else if (n === 0) {
        start[o] = i + 1;
      }
    }
    count[o] = n;
  }
  return { start, count, weights: Float32Array.from(list), offset };
}

/**
 * Downscales `src` (width × height × channels, row-major, interleaved) to outWidth × outHeight.
 * Output sizes must not exceed the input's.
 */
export function areaAverage(
  src: Uint8Array,
  width: number,
  height: number,
  channels: number,
  outWidth: number,
  outHeight: number,
): Uint8Array {
  if (outWidth > width || outHeight > height || outWidth < 1 || outHeight < 1) {
    throw new RangeError(`area averaging only shrinks: ${width}x${height} → ${outWidth}x${outHeight}`);
  }
  const tx = taps(width, outWidth);
  const ty = taps(height, outHeight);
  // Rows first: height × outWidth intermediate, kept in floats to avoid double rounding.
  const mid = new Float32Array(height * outWidth * channels);
  const rowIn = width * channels;
  const rowMid = outWidth * channels;
  for (let y = 0; y < height; y++) {
    const inBase = y * rowIn;
    const midBase = y * rowMid;
    for (let ox = 0; ox < outWidth; ox++) {
      const s = tx.start[ox] ?? 0;
      const n = tx.count[ox] ?? 0;
      const wo = tx.offset[ox] ?? 0;
      for (let c = 0; c < channels; c++) {
        let acc = 0;
        let p = inBase + s * channels + c;
        for (let k = 0; k < n; k++) {
          acc += (src[p] ?? 0) * (tx.weights[wo + k] ?? 0);
          p += channels;
        }
        mid[midBase + ox * channels + c] = acc;
      }
    }
  }
  const out = new Uint8Array(outHeight * rowMid);
  const acc = new Float32Array(rowMid);
  for (let oy = 0; oy < outHeight; oy++) {
    acc.fill(0);
    const s = ty.start[oy] ?? 0;
    const n = ty.count[oy] ?? 0;
    const wo = ty.offset[oy] ?? 0;
    for (let k = 0; k < n; k++) {
      const w = ty.weights[wo + k] ?? 0;
      const base = (s + k) * rowMid;
      for (let i = 0; i < rowMid; i++) {
        acc[i] = (acc[i] ?? 0) + (mid[base + i] ?? 0) * w;
      }
    }
    const outBase = oy * rowMid;
    for (let i = 0; i < rowMid; i++) {
      const v = Math.round(acc[i] ?? 0);
      out[outBase + i] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
  return out;
}
