/**
 * What an image costs a model, in tokens, as Anthropic counts them (docs, "Vision": image costs): an
 * image whose long edge is over 1,568 px or that has more than about 1.15 megapixels is first scaled
 * down to fit; then it costs (width × height) / 750 tokens. The screenshot benches count it per answer.
 */
export function imageTokens(width: number, height: number): number {
  const f = Math.min(1, 1568 / Math.max(width, height), Math.sqrt(1_150_000 / (width * height)));
  return Math.ceil((Math.round(width * f) * Math.round(height * f)) / 750);
}
