import { connect, type Socket } from 'node:net';

/** What came back on a raw connection within the wait, and whether the server ended it. */
export interface RawAnswer {
  received: Buffer;
  closedByServer: boolean;
}

/**
 * Opens a TCP connection, writes `chunks` in order (each once the previous is flushed), and collects what comes
 * back until the server ends the connection or `waitMs` passes; then the client hangs up.
 */
export function exchangeRaw(
  port: number,
  chunks: readonly Buffer[],
  waitMs: number,
  until?: (received: Buffer) => boolean,
): Promise<RawAnswer> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const parts: Buffer[] = [];
    let done = false;
    const finish = (closedByServer: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ received: Buffer.concat(parts), closedByServer });
    };
    const timer = setTimeout(() => finish(false), waitMs);
    socket.on('data', (data) => {
      parts.push(data);
      if (until?.(Buffer.concat(parts))) finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // A reset (the server destroyed the socket while we wrote) is the server ending it too.
    socket.on('error', () => finish(true));
    socket.once('connect', () => {
      void (async () => {
        for (const chunk of chunks) {
          if (done) return;
          await new Promise<void>((written) => socket.write(chunk, () => written()));
        }
      })();
    });
  });
}

/** The status code of an HTTP answer's first line, if one came. */
export function httpStatus(received: Buffer): number | undefined {
  const match = /^HTTP\/1\.1 (\d{3})/.exec(received.subarray(0, 32).toString('latin1'));
  return match ? Number(match[1]) : undefined;
}

/** The close code of the first close frame a server sent after its 101 (server frames are unmasked). */
export function closeCodeAfterUpgrade(received: Buffer): number | undefined {
  const end = received.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  let at = end + 4;
  while (at + 2 <= received.length) {
    const opcode = received[at]! & 0x0f;
    let length = received[at + 1]! & 0x7f;
    let header = 2;
    if (length === 126) {
      if (at + 4 > received.length) return undefined;
      length = received.readUInt16BE(at + 2);
      header = 4;
    } else if (length === 127) {
      if (at + 10 > received.length) return undefined;
      length = Number(received.readBigUInt64BE(at + 2));
      header = 10;
    }
    if (opcode === 0x8) {
      return length >= 2 && at + header + 2 <= received.length ? received.readUInt16BE(at + header) : 1005;
    }
    at += header + length;
  }
  return undefined;
}
