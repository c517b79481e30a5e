import { deflateSync } from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodeFrame, encodeClose, encodeHandshake, encodeReq, parseFrame, toMessages } from '../../../core/protocol.ts';

/** What a WebSocket with binaryType 'arraybuffer' hands over for a zlib frame. */
function zlibFrame(value: unknown): ArrayBuffer {
  const buf = deflateSync(Buffer.from(JSON.stringify(value)));
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
}

const note = { id: 'a'.repeat(64), pubkey: 'b'.repeat(64), created_at: 1, kind: 1, tags: [], content: 'árvíztűrő tükörfúrógép', sig: 'c'.repeat(128) };
const stats = { kind: 10000100, content: JSON.stringify({ event_id: note.id, likes: 3 }) };

describe('cache protocol framing', async () => {
  afterEach(() => vi.restoreAllMocks());

  it('parses text EVENT, EOSE and NOTICE frames', async () => {
    expect(await parseFrame(JSON.stringify(['EVENT', 's', note]))).toEqual([{ type: 'EVENT', subid: 's', event: note }]);
    expect(await parseFrame(JSON.stringify(['EOSE', 's']))).toEqual([{ type: 'EOSE', subid: 's' }]);
    expect(await parseFrame(JSON.stringify(['NOTICE', 's', 'invalid spec format']))).toEqual([
      { type: 'NOTICE', subid: 's', message: 'invalid spec format' },
    ]);
  });

  it('inflates a zlib EVENTS frame and replays it as individual EVENTs in order', async () => {
    const frame = zlibFrame(['EVENTS', 'feed_1', [note, stats]]);
    expect(await decodeFrame(frame)).toEqual(['EVENTS', 'feed_1', [note, stats]]);
    expect(await parseFrame(frame)).toEqual([
      { type: 'EVENT', subid: 'feed_1', event: note },
      { type: 'EVENT', subid: 'feed_1', event: stats },
    ]);
  });

  it('accepts a typed-array view as well as an ArrayBuffer', async () => {
    const buf = deflateSync(Buffer.from(JSON.stringify(['EVENTS', 'x', [stats]])));
    expect(await parseFrame(new Uint8Array(buf))).toEqual([{ type: 'EVENT', subid: 'x', event: stats }]);
  });

  it('an empty EVENTS batch carries no messages', async () => {
    expect(await parseFrame(zlibFrame(['EVENTS', 'x', []]))).toEqual([]);
  });

  it('turns an undecompressable binary reply into an empty object', async () => {
    const garbage = new Uint8Array([1, 2, 3, 4, 5]).buffer;
    expect(await decodeFrame(garbage)).toEqual({});
    expect(await parseFrame(garbage)).toEqual([]);
  });

  it('turns unparsable text and inflated non-JSON into an empty object', async () => {
    expect(await decodeFrame('{not json')).toEqual({});
    const buf = deflateSync(Buffer.from('definitely not json'));
    expect(await decodeFrame(new Uint8Array(buf))).toEqual({});
  });

  it('logs decoding failures only in devMode', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await decodeFrame('{bad', false);
    expect(warn).not.toHaveBeenCalled();
    await decodeFrame('{bad', true);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it('ignores frames that are not protocol messages', async () => {
    expect(toMessages({})).toEqual([]);
    expect(toMessages(['OK', 'x', true])).toEqual([]);
    expect(toMessages(['EVENT', 'x', 'not an object'])).toEqual([]);
    expect(toMessages(['EVENTS', 'x', [1, null, stats]])).toEqual([{ type: 'EVENT', subid: 'x', event: stats }]);
  });

  it('encodes REQ (payload omitted when absent), CLOSE and the handshake', async () => {
    expect(encodeReq('s', 'get_home_feeds')).toBe('["REQ","s",{"cache":["get_home_feeds"]}]');
    expect(JSON.parse(encodeReq('s', 'user_infos', { pubkeys: ['p'] }))).toEqual(['REQ', 's', { cache: ['user_infos', { pubkeys: ['p'] }] }]);
    expect(encodeClose('s')).toBe('["CLOSE","s"]');
    expect(encodeHandshake('app')).toBe('["REQ","set_protocol_app",{"cache":["set_primal_protocol",{"compression":"zlib"}]}]');
  });
});
