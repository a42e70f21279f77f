import mqtt, { type MqttClient } from 'mqtt';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type TracingHandle } from '@fleet/telemetry';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

const MAC = '02:e2:00:00:00:01';
const SET_VOLUME = 'self.audio_speaker.set_volume';

const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId;

describe('one operator call is one trace', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: TracingHandle;
  let p: E2ePlatform;
  let watcher: MqttClient;
  /** The traceparent the broker put on each device uplink it wrapped, by the raw bytes it carried. */
  const uplinkTraces: { traceparent: string; raw: string }[] = [];

  beforeAll(async () => {
    tracing = startTracing({
      service: 'e2e',
      otlpEnabled: false,
      processors: [new SimpleSpanProcessor(exporter)],
    });
    p = await startE2ePlatform();
    // A second connection of the orchestrator's identity, to see the wrappers the broker publishes.
    watcher = await mqtt.connectAsync(p.brokerUrls.mqtt, {
      username: 'orchestrator',
      password: p.serviceSecret,
      clientId: 'e2e-uplink-watcher',
      protocolVersion: 4,
    });
    watcher.on('message', (_topic, payload) => {
      const wrapper = JSON.parse(payload.toString()) as { traceparent: string; raw: string };
      uplinkTraces.push({
        traceparent: wrapper.traceparent,
        raw: Buffer.from(wrapper.raw, 'base64').toString(),
      });
    });
    await watcher.subscribeAsync('fleet/devices/+/up/mcp');
    await p.device(MAC);
  }, 60_000);

  afterAll(async () => {
    await watcher?.endAsync();
    await p?.close();
    await tracing?.shutdown();
  });

  it('runs from the API request through the queue, the orchestrator and the device to the verification', async () => {
    exporter.reset();
    const key = await p.operatorKey();
    const response = await fetch(`${p.apiUrl}/api/v1/devices/${MAC}/calls`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: SET_VOLUME, arguments: { volume: 37 } }),
    });
    expect(response.status).toBe(202);
    const { id: callId } = (await response.json()) as { id: string };

    const call = await waitFor(
      async () => {
        const { rows } = await p.sql.query(
          'SELECT verdict, reason, traceparent, jsonrpc_id FROM call WHERE id = $1 AND verdict IS NOT NULL',
          [callId],
        );
        return rows[0] as
          { verdict: string; reason: string | null; traceparent: string; jsonrpc_id: number } | undefined;
      },
      { what: 'the verdict', timeoutMs: 20_000 },
    );
    expect({ verdict: call.verdict, reason: call.reason }).toMatchObject({ verdict: 'verified' });
    const seal = await waitFor(
      () =>
        exporter
          .getFinishedSpans()
          .find((s) => s.name === 'evidence seal' && s.attributes['call.id'] === callId),
      { what: 'the evidence seal span' },
    );

    const root = exporter.getFinishedSpans().find((s) => s.name === 'POST /api/v1/devices/:id/calls');
    expect(root).toBeDefined();
    const traceId = root!.spanContext().traceId;
    expect(parentOf(root!)).toBeUndefined();
    // The call row (what a later replica resumes from) and the seal carry the same trace.
    expect(call.traceparent.split('-')[1]).toBe(traceId);
    expect(seal.spanContext().traceId).toBe(traceId);

    const spans = exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
    const ids = new Set(spans.map((s) => s.spanContext().spanId));
    // Connected: every span but the API request's hangs off another span of the same trace.
    for (const span of spans) if (span !== root) expect(ids.has(parentOf(span) ?? '')).toBe(true);
    const names = spans.map((s) => s.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'call.request',
        `call ${SET_VOLUME}`,
        'mcp tools/call',
        'verify readback',
        'evidence seal',
      ]),
    );

    // The device leg is keyed by the JSON-RPC id the call went out with, and links to the broker's uplink trace
    // of the very reply it was paired with.
    const deviceLeg = spans.find(
      (s) => s.name === 'mcp tools/call' && s.attributes['rpc.jsonrpc.request_id'] === call.jsonrpc_id,
    );
    expect(deviceLeg).toBeDefined();
    expect(deviceLeg!.attributes['mcp.outcome']).toBe('reply');
    const reply = uplinkTraces.find((u) => u.raw.includes(`"id":${call.jsonrpc_id}`));
    expect(reply).toBeDefined();
    expect(deviceLeg!.links.map((l) => l.context.traceId)).toContain(reply!.traceparent.split('-')[1]);

    // The readback that verified it is a child of the verification step, in the same trace.
    const verify = spans.find((s) => s.name === 'verify readback')!;
    expect(verify.attributes['verify.matched']).toBe(true);
    const readback = spans.filter(
      (s) => s.name === 'mcp tools/call' && parentOf(s) === verify.spanContext().spanId,
    );
    expect(readback.length).toBeGreaterThanOrEqual(1);

    // And the orchestrator's log line for the verdict leads to the trace.
    const sealedLine = p.logLines.find((l) => l['msg'] === 'call sealed' && l['callId'] === callId);
    expect(sealedLine?.['trace_id']).toBe(traceId);
  });

  it('continues the trace of a caller that sends a traceparent header', async () => {
    const callerTrace = '0af7651916cd43dd8448eb211c80319c';
    const key = await p.operatorKey();
    const response = await fetch(`${p.apiUrl}/api/v1/devices/${MAC}/calls`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        traceparent: `00-${callerTrace}-b7ad6b7169203331-01`,
      },
      body: JSON.stringify({ tool: 'self.get_device_status', arguments: {} }),
    });
    expect(response.status).toBe(202);
    const { id: callId } = (await response.json()) as { id: string };
    const { rows } = await p.sql.query('SELECT traceparent FROM call WHERE id = $1', [callId]);
    expect((rows[0] as { traceparent: string }).traceparent.split('-')[1]).toBe(callerTrace);
  });
});
