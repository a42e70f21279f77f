import type { Harness } from './harness';

export interface Stream {
  events: { type: string; data: Record<string, unknown> }[];
  close(): void;
}

/** Opens GET /events and collects what arrives; resolves once the server says the subscription is live. */
export async function openStream(h: Harness, key: string, query = ''): Promise<Stream> {
  const controller = new AbortController();
  const response = await fetch(`${h.baseUrl}/api/v1/events${query}`, {
    headers: { authorization: `Bearer ${key}` },
    signal: controller.signal,
  });
  expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const events: Stream['events'] = [];
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let ready!: () => void;
  const isReady = new Promise<void>((resolve) => (ready = resolve));
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += value;
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (block.includes(': ready')) ready();
          const type = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (type && data) events.push({ type, data: JSON.parse(data) as Record<string, unknown> });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  await isReady;
  return { events, close: () => controller.abort() };
}
