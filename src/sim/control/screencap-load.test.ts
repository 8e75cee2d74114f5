import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testIdentity } from '../../../tests/helpers/sim-identity.js';
import { runOn } from '../device/collect-io.js';
import { createSimDevice } from './index.js';

const FIXTURE = new URL(
  '../../../tests/fixtures/screenshots/materialfiles-list-light-1080x1920.png',
  import.meta.url,
);

describe('sim screencap load', () => {
  it("makes screencap answer a real screen's pixels, PNG and raw, until reset", async () => {
    const dev = createSimDevice({ identity: testIdentity(5970), logcatRate: 0 });
    const drawn = (await runOn(dev, 'screencap -p')).bytes;
    await runOn(dev, 'cat > /data/local/tmp/real.png', { stdin: readFileSync(FIXTURE) });
    expect((await runOn(dev, 'sim screencap load /data/local/tmp/real.png')).code).toBe(0);

    const png = (await runOn(dev, 'screencap -p')).bytes;
    const meta = await sharp(png).metadata();
    // As screencap writes one: an RGBA PNG of the screen's size.
    expect([meta.format, meta.width, meta.height, meta.channels]).toEqual(['png', 1080, 1920, 4]);
    const want = await sharp(readFileSync(FIXTURE)).ensureAlpha().raw().toBuffer();
    expect(Buffer.compare(await sharp(png).raw().toBuffer(), want)).toBe(0);

    // Raw screencap: width, height, format 1 (RGBA_8888), the dataspace word (API 34), the same pixels.
    const raw = (await runOn(dev, 'screencap')).bytes;
    const view = new DataView(raw.buffer, raw.byteOffset, raw.byteLength);
    expect([view.getUint32(0, true), view.getUint32(4, true), view.getUint32(8, true)]).toEqual([
      1080, 1920, 1,
    ]);
    expect(Buffer.compare(Buffer.from(raw.subarray(16)), want)).toBe(0);

    expect((await runOn(dev, 'sim screencap reset')).code).toBe(0);
    expect(Buffer.compare(Buffer.from((await runOn(dev, 'screencap -p')).bytes), Buffer.from(drawn))).toBe(0);
  });

  it('refuses a file that is not an image, saying so', async () => {
    const dev = createSimDevice({ identity: testIdentity(5971), logcatRate: 0 });
    await runOn(dev, 'echo hello > /data/local/tmp/not.png');
    const r = await runOn(dev, 'sim screencap load /data/local/tmp/not.png');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not an image');
    expect((await runOn(dev, 'sim screencap load /data/local/tmp/missing.png')).stderr).toContain(
      'No such file',
    );
  });
});
