import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import net from 'node:net';

/**
 * A minimal self-signed X.509 v3 certificate (RFC 5280) for `--tls-self-signed`, encoded in DER
 * by hand: an EC P-256 key (node:crypto), the names as subjectAltName (DNS names and IP addresses),
 * serverAuth as extended key usage, signed with ECDSA-SHA256. Written here rather than run through
 * the `openssl` binary so it works the same on every platform (Windows has no openssl) and needs
 * no process or temporary config file; node:crypto parses the result to check it.
 */

function derLength(n: number): Buffer {
  if (n < 0x80) {
    return Buffer.from([n]);
  }
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) {
    bytes.unshift(v & 0xff);
  }
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

function tlv(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), derLength(body.length), body]);
}

const seq = (...items: Buffer[]): Buffer => tlv(0x30, ...items);
const set = (...items: Buffer[]): Buffer => tlv(0x31, ...items);
const octets = (b: Buffer): Buffer => tlv(0x04, b);
const bitString = (b: Buffer): Buffer => tlv(0x03, Buffer.from([0]), b);
const utf8 = (s: string): Buffer => tlv(0x0c, Buffer.from(s, 'utf8'));
const explicit = (n: number, inner: Buffer): Buffer => tlv(0xa0 | n, inner);

function oid(dotted: string): Buffer {
  const parts = dotted.split('.').map(Number);
  const bytes: number[] = [parts[0]! * 40 + parts[1]!];
  for (const part of parts.slice(2)) {
    const chunk: number[] = [part & 0x7f];
    for (let v = Math.floor(part / 128); v > 0; v = Math.floor(v / 128)) {
      chunk.unshift(0x80 | (v & 0x7f));
    }
    bytes.push(...chunk);
  }
  return tlv(0x06, Buffer.from(bytes));
}

function integer(bytes: Buffer): Buffer {
  // Positive, no needless leading zero.
  let b = bytes;
  while (b.length > 1 && b[0] === 0 && (b[1]! & 0x80) === 0) {
    b = b.subarray(1);
  }
  return tlv(0x02, (b[0]! & 0x80) !== 0 ? Buffer.concat([Buffer.from([0]), b]) : b);
}

/** UTCTime until 2049, GeneralizedTime after (RFC 5280 section 4.1.2.5). */
function time(date: Date): Buffer {
  const iso = date.toISOString().replace(/[-:T]/g, '').slice(0, 14) + 'Z'; // YYYYMMDDHHMMSSZ
  return date.getUTCFullYear() < 2050
    ? tlv(0x17, Buffer.from(iso.slice(2), 'ascii'))
    : tlv(0x18, Buffer.from(iso, 'ascii'));
}

function ipBytes(ip: string): Buffer {
  if (net.isIPv4(ip)) {
    return Buffer.from(ip.split('.').map(Number));
  }
  // Expand an IPv6 literal to its 16 bytes.
  const [head, tail] = ip.includes('::') ? ip.split('::') : [ip, undefined];
  const headGroups = head ? head.split(':') : [];
  const tailGroups = tail ? tail.split(':') : [];
  const missing = 8 - headGroups.length - tailGroups.length;
  const groups = [...headGroups, ...Array<string>(tail === undefined ? 0 : missing).fill('0'), ...tailGroups];
  const out = Buffer.alloc(16);
  groups.forEach((g, i) => out.writeUInt16BE(parseInt(g || '0', 16), i * 2));
  return out;
}

const OID = {
  commonName: '2.5.4.3',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

/** The names a certificate is for. */
export interface CertificateNames {
  dns: string[];
  ips: string[];
}

/** A generated key pair and certificate, PEM. */
export interface SelfSignedPair {
  cert: string;
  key: string;
}

/** Generates a self-signed certificate for the names, valid from an hour ago for `days` days. */
export function generateSelfSigned(
  names: CertificateNames,
  days = 397,
  commonName = 'droidbus host',
): SelfSignedPair {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const algorithm = seq(oid(OID.ecdsaWithSha256));
  const name = seq(set(seq(oid(OID.commonName), utf8(commonName))));
  const now = Date.now();
  const validity = seq(time(new Date(now - 3600_000)), time(new Date(now + days * 86_400_000)));
  const generalNames = seq(
    ...names.dns.map((d) => tlv(0x82, Buffer.from(d, 'ascii'))),
    ...names.ips.filter((ip) => net.isIP(ip) !== 0).map((ip) => tlv(0x87, ipBytes(ip))),
  );
  const extensions = seq(
    seq(oid(OID.subjectAltName), octets(generalNames)),
    seq(oid(OID.basicConstraints), octets(seq())),
    seq(oid(OID.extKeyUsage), octets(seq(oid(OID.serverAuth)))),
  );
  const serial = randomBytes(16);
  serial[0] = serial[0]! & 0x7f || 0x01;
  const tbs = seq(
    explicit(0, integer(Buffer.from([2]))),
    integer(serial),
    algorithm,
    name,
    validity,
    name,
    spki,
    explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const der = seq(tbs, algorithm, bitString(signature));
  const cert = `-----BEGIN CERTIFICATE-----\n${der.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n?$/, '\n')}-----END CERTIFICATE-----\n`;
  // Parsing it back proves the encoding (and that the key matches) before anything uses it.
  const parsed = new X509Certificate(cert);
  if (!parsed.checkPrivateKey(privateKey) || !parsed.verify(publicKey)) {
    throw new Error('the generated certificate does not verify');
  }
  return { cert, key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
}
