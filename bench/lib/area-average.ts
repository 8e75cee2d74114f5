/**
 * Exact area-average (box filter) downscaling of interleaved 8-bit pixels: every output pixel is
 * the mean of the input area it covers, partial pixels weighted by the covered fraction. This is
 * what "area-averaged" means for a screenshot: no ringing around text edges (the Lanczos and cubic
 * kernels of libvips overshoot there), no aliasing (nearest), and no blur beyond the pixel's own
 * footprint (libvips' linear kernel is a tent twice that wide). sharp 0.35 offers no box kernel for
 * fractional factors, so the filter runs here, separably (rows, then columns), on typed arrays.
 *
 * A screen is mostly flat: a row equal to the one before reuses its row pass, an output pixel whose
 * input pixels are all one colour is that colour, and an output row made of one row repeated is
 * that row — exact, and a 1080×2400 capture averages in ~12–20 ms instead of ~35 (bench/ui-parse).
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

/**
 * Rows pass for one RGBA row (`px`: its pixels as 32-bit words, `bytes`: the same row), into `mid`
 * at `m`. Flat stretches — most of any screen — cost a comparison: where every tap of an output
 * pixel holds the same pixel, the average is that pixel, exactly.
 */
function shrinkRowRgba(px: Uint32Array, bytes: Uint8Array, tx: Taps, mid: Float32Array, m: number): void {
  const outWidth = tx.start.length;
  const { start, weights, width: t } = tx;
  for (let ox = 0; ox < outWidth; ox++, m += 4) {
    const s = start[ox] as number;
    const first = px[s] as number;
    let flat = true;
    for (let k = 1; k < t; k++) {
      if (px[s + k] !== first) {
        flat = false;
        break;
      }
    }
    const p0 = s * 4;
    if (flat) {
      mid[m] = bytes[p0] as number;
      mid[m + 1] = bytes[p0 + 1] as number;
      mid[m + 2] = bytes[p0 + 2] as number;
      mid[m + 3] = bytes[p0 + 3] as number;
      continue;
    }
    const wo = ox * t;
    if (t === 3) {
      const w0 = weights[wo] as number;
      const w1 = weights[wo + 1] as number;
      const w2 = weights[wo + 2] as number;
      for (let c = 0; c < 4; c++) {
        mid[m + c] =
          (bytes[p0 + c] as number) * w0 +
          (bytes[p0 + 4 + c] as number) * w1 +
          (bytes[p0 + 8 + c] as number) * w2;
      }
      continue;
    }
    for (let c = 0; c < 4; c++) {
      let acc = 0;
      for (let k = 0, p = p0 + c; k < t; k++, p += 4) {
        acc += (bytes[p] as number) * (weights[wo + k] as number);
      }
      mid[m + c] = acc;
    }
  }
}

/** Rows pass for one input row of any channel count: `width` pixels from `inBase` to the output width, into `mid` at `m` (floats, to avoid double rounding). */
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
    for (let c = 0; c < channels; c++) {
      let acc = 0;
      for (let k = 0, p = p0 + c; k < t; k++, p += channels) {
        acc += (src[p] as number) * (weights[wo + k] as number);
      }
      mid[m++] = acc;
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
  private readonly rowBytes: number;
  /** The last row pushed, to spot a row that repeats it. */
  private readonly last: Uint8Array;
  /** Which distinct row each ring slot holds (equal numbers: equal rows). */
  private readonly content: Int32Array;
  private rows = 0;
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
    this.rowBytes = width * channels;
    this.last = new Uint8Array(this.rowBytes);
    this.content = new Int32Array(this.ty.width);
  }

  /** The next input row: `width × channels` bytes of `src` from `offset`. */
  pushRow(src: Uint8Array, offset = 0): void {
    if (this.y >= this.height) {
      throw new RangeError(`more than ${this.height} rows pushed`);
    }
    const t = this.ty.width;
    const slot = (this.y % t) * this.rowMid;
    const row = src.subarray(offset, offset + this.rowBytes);
    if (this.y > 0 && Buffer.compare(row, this.last) === 0) {
      // A row like the one before it (backgrounds, margins: most rows of a screen) has its row pass.
      const before = ((this.y - 1) % t) * this.rowMid;
      this.ring.copyWithin(slot, before, before + this.rowMid);
      this.content[this.y % t] = this.content[(this.y - 1) % t] as number;
    } else {
      if (this.channels === 4 && row.byteOffset % 4 === 0) {
        shrinkRowRgba(new Uint32Array(row.buffer, row.byteOffset, this.width), row, this.tx, this.ring, slot);
      } else {
        shrinkRow(src, offset, this.channels, this.tx, this.ring, slot);
      }
      this.content[this.y % t] = ++this.rows;
    }
    this.last.set(row);
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
    const id = this.content[first % t];
    let repeated = true;
    for (let k = 1; k < t; k++) {
      repeated &&= this.content[(first + k) % t] === id;
    }
    if (repeated) {
      // The same row t times over: its row pass is the average.
      const base = slot(0);
      for (let i = 0; i < rowMid; i++) {
        out[outBase + i] = (ring[base + i] as number) + 0.5;
      }
    } else if (t <= 4) {
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
