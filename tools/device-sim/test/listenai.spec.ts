import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';
import { encodeListenAiDown, LINK_CLOSE, listenAiRequestId } from '@fleet/protocol';
import { waitFor } from '@fleet/testing';
import { ListenAiDevice, SAMPLE_PNG_BASE64, type ListenAiDeviceOptions } from '../src';

interface Up {
  id: string;
  action: string;
  method: string;
  result?: {
    content?: { type: string; text?: string; data?: string }[];
    isError?: boolean;
    tools?: { name: string }[];
    nextCursor?: string;
  };
  error?: { message: string };
}

/** A stand-in for the platform's link: accepts every upgrade and lets the test speak the cloud's side. */
async function startLink() {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const links: { socket: WebSocket; request: IncomingMessage; received: Up[]; raw: string[] }[] = [];
  wss.on('connection', (socket, request) => {
    const link = { socket, request, received: [] as Up[], raw: [] as string[] };
    socket.on('message', (data: Buffer) => {
      link.raw.push(data.toString());
      try {
        link.received.push(JSON.parse(data.toString()) as Up);
      } catch {
        // a broken frame: kept raw only
      }
    });
    links.push(link);
  });
  let next = 0;
  const send = (link: (typeof links)[number], method: string, params: Record<string, unknown> = {}) => {
    const id = listenAiRequestId(++next);
    link.socket.send(encodeListenAiDown({ cid: 'c', sid: 's', method, id, params }));
    return id;
  };
  const ask = async (link: (typeof links)[number], method: string, params: Record<string, unknown> = {}) => {
    const id = send(link, method, params);
    return waitFor(() => link.received.find((r) => r.id === id), { what: `the reply to ${method}` });
  };
  const port = (wss.address() as { port: number }).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    links,
    send,
    ask,
    close: () => new Promise<void>((r) => wss.close(() => r())),
  };
}

describe('a simulated ListenAI device', () => {
  let link: Awaited<ReturnType<typeof startLink>>;
  const devices: ListenAiDevice[] = [];
  const start = async (options: Partial<ListenAiDeviceOptions> = {}) => {
    const device = new ListenAiDevice({
      mac: '02:1a:00:00:00:01',
      token: 'lt_0123456789_secret',
      linkUrls: [link.url],
      reconnectDelayMs: 20,
      ...options,
    });
    devices.push(device);
    const before = link.links.length;
    device.start();
    await device.waitUntilLinked();
    return { device, l: await waitFor(() => link.links[before]) };
  };

  beforeEach(async () => {
    link = await startLink();
  });
  afterEach(async () => {
    await Promise.all(devices.splice(0).map((d) => d.stop()));
    await link.close();
  });

  it('opens its link with param {"mcp":true} and its token, and answers initialize with its instructions', async () => {
    const { l } = await start();
    expect(l.request.url).toBe('/v1/interaction?param=%7B%22mcp%22%3Atrue%7D');
    expect(l.request.headers.authorization).toBe('Bearer lt_0123456789_secret');
    const reply = await link.ask(l, 'initialize', {
      protocolVersion: '2024-11-05',
      capabilities: { vision: { url: '', token: '' } },
    });
    expect(reply).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/),
      action: 'mcp',
      method: 'initialize',
      result: {
        capabilities: { tools: {} },
        serverInfo: { name: 'arcs-mini', version: '1.0.0' },
        instructions: expect.any(String),
      },
    });
    expect(l.raw[0]).not.toContain('jsonrpc');
  });

  it('pages tools/list with opaque cursors, valid on its link only', async () => {
    const { l } = await start({ tokenIn: 'query' });
    expect(l.request.url).toContain('token=lt_0123456789_secret');
    const first = await link.ask(l, 'tools/list', { cursor: '' });
    expect(first.result!.tools!.map((t) => t.name)).toEqual(['set_screen', 'set_volume', 'get_volume']);
    const cursor = first.result!.nextCursor!;
    expect(cursor).toMatch(/^page_[0-9a-f]{12}$/);
    const second = await link.ask(l, 'tools/list', { cursor });
    expect(second.result).toEqual({ tools: [expect.objectContaining({ name: 'take_photo' })] });
    expect((await link.ask(l, 'tools/list', { cursor: 'made-up' })).error).toEqual({
      message: 'invalid cursor',
    });
  });

  it('runs the seed tools, answers failures as isError:true with a text, and a photo with its image', async () => {
    const { device, l } = await start();
    const call = (name: string, args: Record<string, unknown>) =>
      link.ask(l, 'tools/call', { name, arguments: args });
    expect((await call('set_volume', { value: 42 })).result).toEqual({
      content: [{ type: 'text', text: '音量已设置为 42%' }],
      isError: false,
    });
    expect(device.state.volume).toBe(42);
    expect((await call('get_volume', {})).result!.content![0]!.text).toBe('{"value":42}');
    expect((await call('set_volume', { value: 140 })).result).toEqual({
      content: [{ type: 'text', text: '音量设置失败: 参数超出范围 (0-100)' }],
      isError: true,
    });
    expect((await call('self.reboot', {})).result).toMatchObject({
      isError: true,
      content: [{ text: '工具不存在: self.reboot' }],
    });
    expect((await call('set_screen', {})).result).toMatchObject({ isError: true });
    expect((await call('take_photo', {})).result!.content![1]).toEqual({
      type: 'image',
      data: SAMPLE_PNG_BASE64,
      mimeType: 'image/png',
    });
  });

  it('carries the fault knobs: a lie, dropped and broken replies, a flapping link', async () => {
    const { device, l } = await start();
    device.setFaults({ lie: true });
    await link.ask(l, 'tools/call', { name: 'set_volume', arguments: { value: 10 } });
    expect(device.state.volume).toBe(50);
    device.setFaults({ lie: false, dropReplies: 1 });
    const dropped = link.send(l, 'tools/call', { name: 'get_volume', arguments: {} });
    await waitFor(() => device.observed.received.all.some((m) => m.includes(dropped)));
    device.setFaults({ dropReplies: 0, brokenJson: 1 });
    link.send(l, 'tools/call', { name: 'get_volume', arguments: {} });
    await waitFor(() => l.raw.length === 2);
    expect(() => JSON.parse(l.raw[1]!) as unknown).toThrow();
    expect(l.received.some((r) => r.id === dropped)).toBe(false);
    device.setFaults({ brokenJson: 0 });
    device.flap();
    await waitFor(() => link.links.length === 2 && device.linked, { what: 'the device back on a new link' });
    expect(device.linkCount).toBe(2);
  });

  it('stops retrying when the platform refuses it or another link takes over, and retries after a shutdown', async () => {
    const { device, l } = await start();
    l.socket.close(LINK_CLOSE.broker_shutdown.code, LINK_CLOSE.broker_shutdown.reason);
    await waitFor(() => link.links.length === 2 && device.linked, { what: 'the reconnect' });
    link.links[1]!.socket.close(LINK_CLOSE.unknown_token.code, LINK_CLOSE.unknown_token.reason);
    await waitFor(() => device.refused);
    expect(device.refused).toEqual({ code: 4401, reason: 'unknown device token' });
    expect(device.linked).toBe(false);
  });
});
