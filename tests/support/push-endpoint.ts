/**
 * A push service of our own for the tests: an HTTP server on a free loopback port that keeps every
 * POST, answers 201 (or 410 under /gone/, as a push service does for an expired subscription; under
 * /hold/ not at all until released, as a stuck push service), and
 * the browser's side of RFC 8291: a subscription key pair and auth secret, and the aes128gcm
 * decryption of what arrives, so a test reads exactly what a browser would.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface PushEndpoint {
  origin: string;
  received: Received[];
  /** Answers the held requests (and later ones under /hold/) with `status`. */
  release(status: number): void;
  close(): Promise<void>;
}

export async function startPushEndpoint(): Promise<PushEndpoint> {
  const received: Received[] = [];
  const held: ServerResponse[] = [];
  let holdStatus = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      if (req.url?.startsWith('/hold/') && !holdStatus) held.push(res);
      else res.writeHead(req.url?.startsWith('/hold/') ? holdStatus : req.url?.startsWith('/gone/') ? 410 : 201).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    release(status) {
      holdStatus = status;
      for (const res of held.splice(0)) res.writeHead(status).end();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The browser's half of a subscription. */
export class BrowserKeys {
  private readonly ecdh: ECDH = createECDH('prime256v1');
  readonly auth = randomBytes(16);
  readonly publicKey: Buffer;
  constructor() {
    this.publicKey = this.ecdh.generateKeys();
  }

  subscription(endpoint: string) {
    return { endpoint, keys: { p256dh: this.publicKey.toString('base64url'), auth: this.auth.toString('base64url') } };
  }

  /** RFC 8188 aes128gcm with the RFC 8291 key schedule; one record, as web-push sends. */
  decrypt(body: Buffer): string {
    const salt = body.subarray(0, 16);
    const idLength = body[20];
    const serverKey = body.subarray(21, 21 + idLength);
    const ciphertext = body.subarray(21 + idLength);
    const shared = this.ecdh.computeSecret(serverKey);
    const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), this.publicKey, serverKey]);
    const ikm = Buffer.from(hkdfSync('sha256', shared, this.auth, keyInfo, 32));
    const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
    const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
    const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
    decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
    const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
    // The last record ends in a 0x02 delimiter, then zero padding.
    let end = padded.length - 1;
    while (end >= 0 && padded[end] === 0) end--;
    if (padded[end] !== 2) throw new Error(`bad padding delimiter ${padded[end]}`);
    return padded.subarray(0, end).toString('utf8');
  }
}

/** The VAPID header's JWT claims, after checking its ES256 signature against the k= key. */
export function vapidClaims(authorization: string | undefined): { claims: Record<string, unknown>; key: string } {
  const m = /^vapid t=([\w-]+\.[\w-]+\.[\w-]+), k=([\w-]+)$/.exec(authorization ?? '');
  if (!m) throw new Error(`not a VAPID header: ${authorization}`);
  const [head, payload, sig] = m[1].split('.');
  const point = Buffer.from(m[2], 'base64url');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33, 65).toString('base64url') },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${head}.${payload}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  if (!ok) throw new Error('VAPID JWT signature does not verify');
  const header = JSON.parse(Buffer.from(head, 'base64url').toString()) as Record<string, unknown>;
  if (header.alg !== 'ES256') throw new Error(`VAPID JWT alg ${String(header.alg)}`);
  return { claims: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>, key: m[2] };
}
