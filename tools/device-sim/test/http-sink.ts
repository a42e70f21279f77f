// A local HTTP endpoint that records what a device uploads and answers with a chosen status and body.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface HttpSink {
  readonly url: string;
  readonly requests: { method: string; headers: IncomingHttpHeaders; body: Buffer }[];
  answer: { status: number; body: string };
  close(): Promise<void>;
}

export async function startHttpSink(): Promise<HttpSink> {
  const sink = { requests: [] as HttpSink['requests'], answer: { status: 200, body: 'ok' } };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      sink.requests.push({ method: req.method ?? '', headers: req.headers, body: Buffer.concat(chunks) });
      res.statusCode = sink.answer.status;
      res.end(sink.answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return Object.assign(sink, {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/upload`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}
