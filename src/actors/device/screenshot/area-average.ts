/**
 * Exact area-average (box filter) downscaling of interleaved 8-bit pixels: every output pixel is
 * the mean of the input area it covers, partial pixels weighted by the covered fraction. This is
 * what "area-averaged" means for a screenshot: no ringing around text edges (the Lanczos and cubic
 * kernels of libvips overshoot there), no aliasing (nearest), and no blur beyond the pixel's own
 * footprint (libvips' linear kernel is a tent twice that wide). sharp 0.35 offers no box kernel for
 * fractional factors, so the filter runs here, separably (rows, then columns), on typed arrays.
 */

/**
 * For each output sample, `width` input samples starting at `start` with their weights (summing
 * to 1). Every sample gets the same number of taps, padded with zero weights on a valid index, so
 * the inner loops have a fixed shape.
 */
interface Taps {
  start: Int32Array;
  weights: Float32Array;
  width: number;
}

function taps(inSize: number, outSize: number): Taps {
  const ratio = inSize / outSize;
  const width = Math.min(inSize, Math.ceil(ratio) + 1);
  const start = new Int32Array(outSize);
  const weights = new Float32Array(outSize * width);
  for (let o = 0; o < outSize; o++) {
    const a = o * ratio;
    const b = Math.min(inSize, a + ratio);
    // Start early enough that `width` taps never run past the last sample.
    const first = Math.max(0, Math.min(Math.floor(a), inSize - width));
    start[o] = first;
    for (let k = 0; k < width; k++) {
      const i = first + k;
      const w = (Math.min(i + 1, b) - Math.max(i, a)) / ratio;
      weights[o * width + k] = w > 0 ? w : 0;
    }
  }
  return { start, weights, width };
}

/** Rows pass for one input row: `width` pixels to the output width, into `mid` at `m` (floats, to avoid double rounding). */
function shrinkRow(
  src: Uint8Array,
  inBase: number,
  channels: number,
  tx: Taps,
  mid: Float32Array,
  m: number,
): void {
  const outWidth = tx.start.length;
  const { start, weights, width: t } = tx;
  for (let ox = 0; ox < outWidth; ox++) {
    const wo = ox * t;
    const p0 = inBase + (start[ox] as number) * channels;
    if (channels === 4 && t <= 4) {
      // Fixed four taps (padded with zero weights, clamped to the row) keep this loop-free.
      const w0 = weights[wo] as number;
      const w1 = t > 1 ? (weights[wo + 1] as number) : 0;
      const w2 = t > 2 ? (weights[wo + 2] as number) : 0;
      const w3 = t > 3 ? (weights[wo + 3] as number) : 0;
      const p1 = t > 1 ? p0 + 4 : p0;
      const p2 = t > 2 ? p0 + 8 : p0;
      const p3 = t > 3 ? p0 + 12 : p0;
      mid[m] =
        (src[p0] as number) * w0 +
        (src[p1] as number) * w1 +
        (src[p2] as number) * w2 +
        (src[p3] as number) * w3;
      mid[m + 1] =
        (src[p0 + 1] as number) * w0 +
        (src[p1 + 1] as number) * w1 +
        (src[p2 + 1] as number) * w2 +
        (src[p3 + 1] as number) * w3;
      mid[m + 2] =
        (src[p0 + 2] as number) * w0 +
        (src[p1 + 2] as number) * w1 +
        (src[p2 + 2] as number) * w2 +
        (src[p3 + 2] as number) * w3;
      mid[m + 3] =
        (src[p0 + 3] as number) * w0 +
        (src[p1 + 3] as number) * w1 +
        (src[p2 + 3] as number) * w2 +
        (src[p3 + 3] as number) * w3;
      m += 4;
    } else if (channels === 4) {
      let r = 0;
      let g = 0;
      let b = 0;
      let a = 0;
      for (let k = 0, p = p0; k < t; k++, p += 4) {
        const w = weights[wo + k] as number;
        r += (src[p] as number) * w;
        g += (src[p + 1] as number) * w;
        b += (src[p + 2] as number) * w;
        a += (src[p + 3] as number) * w;
      }
      mid[m] = r;
      mid[m + 1] = g;
      mid[m + 2] = b;
      mid[m + 3] = a;
      m += 4;
    } else {
      for (let c = 0; c < channels; c++) {
        let acc = 0;
        for (let k = 0, p = p0 + c; k < t; k++, p += channels) {
          acc += (src[p] as number) * (weights[wo + k] as number);
        }
        mid[m++] = acc;
      }
    }
  }
}

/**
 * Downscales rows as they arrive (top to bottom), holding only the few row-pass results the next
 * output row needs: a screenshot is area-averaged while it is being decoded, without its pixels
 * ever being in memory at once (a 1080×2400 capture is 10 MB of pixels and would be 22 MB of
 * floats). Output sizes must not exceed the input's.
 */
export class AreaAverager {
  private readonly tx: Taps;
  private readonly ty: Taps;
  private readonly rowMid: number;
  /** Row-pass results of the last `ty.width` input rows: input row y sits in slot y % ty.width. */
  private readonly ring: Float32Array;
  private readonly out: Uint8Array;
  private y = 0;
  private oy = 0;

  constructor(
    readonly width: number,
    readonly height: number,
    readonly channels: number,
    readonly outWidth: number,
    readonly outHeight: number,
  ) {
    if (outWidth > width || outHeight > height || outWidth < 1 || outHeight < 1) {
      throw new RangeError(`area averaging only shrinks: ${width}x${height} → ${outWidth}x${outHeight}`);
    }
    this.tx = taps(width, outWidth);
    this.ty = taps(height, outHeight);
    this.rowMid = outWidth * channels;
    this.ring = new Float32Array(this.ty.width * this.rowMid);
    this.out = new Uint8Array(outHeight * this.rowMid);
  }

  /** The next input row: `width × channels` bytes of `src` from `offset`. */
  pushRow(src: Uint8Array, offset = 0): void {
    if (this.y >= this.height) {
      throw new RangeError(`more than ${this.height} rows pushed`);
    }
    const t = this.ty.width;
    shrinkRow(src, offset, this.channels, this.tx, this.ring, (this.y % t) * this.rowMid);
    // Every output row whose input rows are all in has its columns pass now.
    while (this.oy < this.outHeight && (this.ty.start[this.oy] as number) + t - 1 <= this.y) {
      this.columns(this.oy++);
    }
    this.y++;
  }

  /** The output, once every input row was pushed. */
  finish(): Uint8Array {
    if (this.y !== this.height) {
      throw new RangeError(`${this.y} of ${this.height} rows pushed`);
    }
    return this.out;
  }

  /** Columns pass: output row `oy` is a weighted sum of whole row-pass rows. */
  private columns(oy: number): void {
    const { ring, out, rowMid } = this;
    const t = this.ty.width;
    const first = this.ty.start[oy] as number;
    const slot = (k: number): number => ((first + k) % t) * rowMid;
    const wo = oy * t;
    const outBase = oy * rowMid;
    const weights = this.ty.weights;
    if (t <= 4) {
      const base = slot(0);
      const w0 = weights[wo] as number;
      const w1 = t > 1 ? (weights[wo + 1] as number) : 0;
      const w2 = t > 2 ? (weights[wo + 2] as number) : 0;
      const w3 = t > 3 ? (weights[wo + 3] as number) : 0;
      const r1 = t > 1 ? slot(1) : base;
      const r2 = t > 2 ? slot(2) : base;
      const r3 = t > 3 ? slot(3) : base;
      for (let i = 0; i < rowMid; i++) {
        // Uint8Array clamps on store; +0.5 rounds half up for the non-negative values here.
        out[outBase + i] =
          (ring[base + i] as number) * w0 +
          (ring[r1 + i] as number) * w1 +
          (ring[r2 + i] as number) * w2 +
          (ring[r3 + i] as number) * w3 +
          0.5;
      }
    } else {
      const bases = Array.from({ length: t }, (_, k) => slot(k));
      for (let i = 0; i < rowMid; i++) {
        let acc = 0.5;
        for (let k = 0; k < t; k++) {
          acc += (ring[(bases[k] as number) + i] as number) * (weights[wo + k] as number);
        }
        out[outBase + i] = acc;
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
  const averager = new AreaAverager(width, height, channels, outWidth, outHeight);
  const row = width * channels;
  for (let y = 0; y < height; y++) {
    averager.pushRow(src, y * row);
  }
  return averager.finish();
}
