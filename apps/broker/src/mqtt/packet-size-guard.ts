import type { Duplex } from 'node:stream';

/**
 * Watches the MQTT fixed headers on a connection's incoming bytes and reports a packet whose declared size is
 * over the limit as soon as its header arrives, before aedes' parser buffers it (mqtt-packet has no limit of
 * its own). It reads only headers; bodies are skipped by count.
 */
export function guardPacketSizes(
  stream: Duplex,
  maxBytes: number,
  onViolation: (reason: 'oversized' | 'malformed_length') => void,
): void {
  let state: 'header' | 'length' | 'body' = 'header';
  let length = 0;
  let multiplier = 1;
  let lengthBytes = 0;
  let remaining = 0;
  let tripped = false;

  stream.on('data', (chunk: Buffer) => {
    let i = 0;
    while (i < chunk.length && !tripped) {
      if (state === 'header') {
        i++;
        state = 'length';
        length = 0;
        multiplier = 1;
        lengthBytes = 0;
      } else if (state === 'length') {
        const byte = chunk[i++]!;
        length += (byte & 0x7f) * multiplier;
        multiplier *= 128;
        lengthBytes++;
        if (byte & 0x80) {
          // [MQTT-2.2.3] the remaining length takes at most four bytes
          if (lengthBytes === 4) trip('malformed_length');
          continue;
        }
        if (length + 1 + lengthBytes > maxBytes) trip('oversized');
        remaining = length;
        state = remaining === 0 ? 'header' : 'body';
      } else {
        const skip = Math.min(remaining, chunk.length - i);
        i += skip;
        remaining -= skip;
        if (remaining === 0) state = 'header';
      }
    }
  });

  function trip(reason: 'oversized' | 'malformed_length'): void {
    tripped = true;
    onViolation(reason);
    stream.destroy();
  }
}
