/**
 * RFC 6455 §5.2 frames built by hand, so a test can send what no WebSocket library would: unmasked client
 * frames, reserved bits, unknown opcodes, a length that lies, invalid UTF-8 in a text frame.
 */
export interface RawFrame {
  fin: boolean;
  /** RSV1..RSV3 as a 3-bit number (nothing is negotiated, so any bit set is a protocol error). */
  rsv: number;
  opcode: number;
  /** Clients must mask (§5.1); a server must fail an unmasked client frame. */
  masked: boolean;
  payload: Uint8Array;
  /** Claim this payload length instead of the real one (a frame that says more than it carries). */
  claimedLength?: number;
}

export function encodeFrame(frame: RawFrame): Buffer {
  const length = frame.claimedLength ?? frame.payload.length;
  const head: number[] = [(frame.fin ? 0x80 : 0) | ((frame.rsv & 0x7) << 4) | (frame.opcode & 0xf)];
  const maskBit = frame.masked ? 0x80 : 0;
  if (length < 126) head.push(maskBit | length);
  else if (length < 0x10000) head.push(maskBit | 126, length >> 8, length & 0xff);
  else {
    head.push(maskBit | 127, 0, 0, 0, 0);
    head.push((length >>> 24) & 0xff, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff);
  }
  const body = Buffer.from(frame.payload);
  if (!frame.masked) return Buffer.concat([Buffer.from(head), body]);
  const key = Buffer.from([0x37, 0xfa, 0x21, 0x3d]);
  for (let i = 0; i < body.length; i++) body[i]! ^= key[i % 4]!;
  return Buffer.concat([Buffer.from(head), key, body]);
}

/** The client's half of the opening handshake (§4.1), with whatever path and headers a case gives. */
export function upgradeRequest(path: string, headers: Record<string, string> = {}): string {
  const lines = [
    `GET ${path} HTTP/1.1`,
    'Host: 127.0.0.1',
    'Upgrade: websocket',
    'Connection: Upgrade',
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==',
    'Sec-WebSocket-Version: 13',
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  return `${lines.join('\r\n')}\r\n\r\n`;
}
