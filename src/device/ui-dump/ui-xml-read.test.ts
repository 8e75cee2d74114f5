import { readdirSync } from 'node:fs';
import { XMLParser } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { uiFixture } from './test-fixtures.js';
import { readUiXml } from './ui-xml-read.js';
import { sanitizeUiXml } from './ui-xml-sanitize.js';

// What the parser walked before: fast-xml-parser as ui-parse.ts configured it.
const reference = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  parseAttributeValue: false,
  parseTagValue: false,
  trimValues: false,
  processEntities: true,
  htmlEntities: true,
  ignoreDeclaration: true,
  ignorePiTags: true,
  isArray: (name) => name === 'node' || name === 'window' || name === 'display',
});

/** The reference's output without the text it keeps (readUiXml skips text). */
function withoutText(v: unknown): unknown {
  if (Array.isArray(v)) {
    return v.map(withoutText);
  }
  if (v === null || typeof v !== 'object') {
    return v;
  }
  return Object.fromEntries(
    Object.entries(v as Record<string, unknown>)
      .filter(([k]) => k !== '#text')
      .map(([k, x]) => [k, withoutText(x)]),
  );
}

const dir = new URL('../../../tests/fixtures/ui/', import.meta.url);
const fixtures = [
  ...readdirSync(dir).filter((f) => /\.(xml|txt)$/.test(f)),
  ...readdirSync(new URL('damaged/', dir))
    .filter((f) => /\.(xml|txt)$/.test(f))
    .map((f) => `damaged/${f}`),
];

describe('readUiXml', () => {
  it.each(fixtures)('reads %s as fast-xml-parser did', (name) => {
    const sanitized = sanitizeUiXml(uiFixture(name));
    if (!sanitized.ok) {
      return;
    }
    expect(readUiXml(sanitized.value.xml)).toEqual(withoutText(reference.parse(sanitized.value.xml)));
  });

  it('decodes the XML entities and numeric references, and skips CDATA holding markup', () => {
    const doc = readUiXml(
      '<hierarchy rotation="0"><node text="a &amp; b &lt;c&gt; &quot;d&quot; &apos;e&apos;&#10;&#x1F600;" /><![CDATA[<node text="no"/>]]><node text=\'x\'/></hierarchy>',
    );
    const nodes = (doc['hierarchy'] as Record<string, unknown>)['node'] as Record<string, string>[];
    expect(nodes.map((n) => n['@_text'])).toEqual(['a & b <c> "d" \'e\'\n😀', 'x']);
  });
});
