import { randomBytes } from 'node:crypto';
import { connect, type Socket } from 'node:net';

// A WebSocket client that writes whatever bytes a test asks for, as a stranger would: ws's own client refuses to
// send an unmasked frame, bad UTF-8 or reserved bits.

export const OPCODE = { continuation: 0, text: 1, binary: 2, close: 8, ping: 9 } as const;

export interface RawFrame {
  opcode: number;
  payload: Buffer;
  fin?: boolean;
  /** RSV1..RSV3 as the frame's bits 6..4 (0b100 is RSV1). */
  rsv?: number;
  /** Clients must mask (RFC 6455 §5.1); false sends the payload bare. */
  masked?: boolean;
}

/** One frame's bytes (RFC 6455 §5.2). */
export function encodeFrame({ opcode, payload, fin = true, rsv = 0, masked = true }: RawFrame): Buffer {
  const first = (fin ? 0x80 : 0) | ((rsv & 0b111) << 4) | (opcode & 0x0f);
  const maskBit = masked ? 0x80 : 0;
  let header: Buffer;
  if (payload.length < 126) header = Buffer.from([first, maskBit | payload.length]);
  else if (payload.length < 65536) {
    header = Buffer.alloc(4);
    header.writeUInt8(first, 0);
    header.writeUInt8(maskBit | 126, 1);
    header.writeUInt16BE(payload.length, 2);
  } else {
    header = Buffer.alloc(10);
    header.writeUInt8(first, 0);
    header.writeUInt8(maskBit | 127, 1);
    header.writeBigUInt64BE(BigInt(payload.length), 2);
  }
  if (!masked) return Buffer.concat([header, payload]);
  const mask = randomBytes(4);
  const body = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
  return Buffer.concat([header, mask, body]);
}

export interface RawWebSocket {
  socket: Socket;
  /** Resolves when the connection is gone, whoever ended it. */
  closed: Promise<void>;
  send(frame: RawFrame): void;
}

/** Opens a WebSocket by hand and resolves once the server answered 101. */
export function openRawWebSocket(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  options: { localAddress?: string; subprotocol?: string } = {},
): Promise<RawWebSocket> {
  return new Promise((resolve, reject) => {
    const socket = connect({
      port,
      host: '127.0.0.1',
      ...(options.localAddress ? { localAddress: options.localAddress } : {}),
    });
    const closed = new Promise<void>((done) => socket.once('close', () => done()));
    socket.on('error', () => undefined);
    let answer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      answer = Buffer.concat([answer, chunk]);
      const end = answer.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      const status = answer.subarray(0, answer.indexOf('\r\n')).toString();
      if (!status.includes(' 101 ')) {
        socket.destroy();
        reject(new Error(`upgrade answered ${status}`));
        return;
      }
      socket.on('data', () => undefined); // keep reading what the server sends (its close frame)
      resolve({ socket, closed, send: (frame) => socket.write(encodeFrame(frame)) });
    };
    socket.on('data', onData);
    socket.once('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        'Host: 127.0.0.1',
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...(options.subprotocol ? [`Sec-WebSocket-Protocol: ${options.subprotocol}`] : []),
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.once('close', () => reject(new Error('closed before the upgrade')));
  });
}
