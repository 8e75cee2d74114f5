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

/** Rows pass: each input row to `outWidth` samples, into `mid` (floats, to avoid double rounding). */
function shrinkRows(
  src: Uint8Array,
  width: number,
  height: number,
  channels: number,
  tx: Taps,
  mid: Float32Array,
): void {
  const outWidth = tx.start.length;
  const rowIn = width * channels;
  const rowMid = outWidth * channels;
  const { start, count, offset, weights } = tx;
  for (let y = 0; y < height; y++) {
    const inBase = y * rowIn;
    let m = y * rowMid;
    for (let ox = 0; ox < outWidth; ox++) {
      const n = count[ox] as number;
      const wo = offset[ox] as number;
      let p = inBase + (start[ox] as number) * channels;
      if (channels === 4) {
        let r = 0;
        let g = 0;
        let b = 0;
        let a = 0;
        for (let k = 0; k < n; k++) {
          const w = weights[wo + k] as number;
          r += (src[p] as number) * w;
          g += (src[p + 1] as number) * w;
          b += (src[p + 2] as number) * w;
          a += (src[p + 3] as number) * w;
          p += 4;
        }
        mid[m] = r;
        mid[m + 1] = g;
        mid[m + 2] = b;
        mid[m + 3] = a;
        m += 4;
      } else if (channels === 3) {
        let r = 0;
        let g = 0;
        let b = 0;
        for (let k = 0; k < n; k++) {
          const w = weights[wo + k] as number;
          r += (src[p] as number) * w;
          g += (src[p + 1] as number) * w;
          b += (src[p + 2] as number) * w;
          p += 3;
        }
        mid[m] = r;
        mid[m + 1] = g;
        mid[m + 2] = b;
        m += 3;
      } else {
        for (let c = 0; c < channels; c++) {
          let acc = 0;
          for (let k = 0; k < n; k++) {
            acc += (src[p + k * channels + c] as number) * (weights[wo + k] as number);
          }
          mid[m++] = acc;
        }
      }
    }
  }
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
  const rowMid = outWidth * channels;
  const mid = new Float32Array(height * rowMid);
  shrinkRows(src, width, height, channels, tx, mid);
  // Columns pass: each output row is a weighted sum of whole intermediate rows.
  const out = new Uint8Array(outHeight * rowMid);
  const acc = new Float64Array(rowMid);
  for (let oy = 0; oy < outHeight; oy++) {
    acc.fill(0);
    const first = ty.start[oy] as number;
    const n = ty.count[oy] as number;
    const wo = ty.offset[oy] as number;
    for (let k = 0; k < n; k++) {
      const w = ty.weights[wo + k] as number;
      const base = (first + k) * rowMid;
      for (let i = 0; i < rowMid; i++) {
        acc[i] = (acc[i] as number) + (mid[base + i] as number) * w;
      }
    }
    const outBase = oy * rowMid;
    for (let i = 0; i < rowMid; i++) {
      // Uint8Array clamps on store; +0.5 rounds half up for the non-negative values here.
      out[outBase + i] = (acc[i] as number) + 0.5;
    }
  }
  return out;
}
