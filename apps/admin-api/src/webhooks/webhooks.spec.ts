import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { waitFor } from '@fleet/testing';
import { insertCatalog } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { SIGNATURE_HEADER, verifySignature } from './webhook-signature';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A receiver that answers each request with the next status in line (then 200). */
async function startReceiver(
  statuses: number[],
): Promise<{ server: Server; url: string; received: Received[] }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(statuses.shift() ?? 200).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  return {
    server,
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`,
    received,
  };
}

describe('webhooks', () => {
  const secret = 'a-shared-secret-of-some-length';
  let h: Harness;
  let admin: Person;
  let operator: Person;
  let device: string;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let webhookId: string;

  beforeAll(async () => {
    h = await startHarness({ WEBHOOK_WORKER: 'true' });
    admin = await h.person('admin');
    operator = await h.person('operator');
    device = (await insertDevices(h.pool, 1))[0]!;
    await insertCatalog(h.pool, device!, [{ name: 'self.reboot', userOnly: true }]);
    receiver = await startReceiver([500]);
  });
  afterAll(async () => {
    await h.stop();
    await new Promise((resolve) => receiver.server.close(resolve));
  });

  const askForReboot = () =>
    h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: operator.key,
      body: { tool: 'self.reboot' },
    });

  it('is created by an admin, who sees the secret once', async () => {
    const r = await h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: { url: receiver.url, events: ['approval.waiting'], secret },
    });
    expect(r.status).toBe(201);
    expect(r.body).toMatchObject({
      url: receiver.url,
      events: ['approval.waiting'],
      disabled: false,
      secret,
    });
    webhookId = r.body.id;
    const list = await h.request('GET', '/api/v1/webhooks', { key: admin.key });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    const unknownEvent = await h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: { url: receiver.url, events: ['device.exploded'] },
    });
    expect(unknownEvent.body.issues[0].field).toBe('body.events.0');
    expect(
      (
        await h.request('POST', '/api/v1/webhooks', {
          key: operator.key,
          body: { url: receiver.url, events: ['approval.waiting'] },
        })
      ).status,
    ).toBe(403);
  });

  it('delivers a signed notice when an approval waits, retrying after a 500', async () => {
    const call = await askForReboot();
    const delivered = await waitFor(
      async () => {
        const { rows } = await h.pool.query(
          `SELECT state, attempts, last_error FROM webhook_delivery WHERE webhook_id = $1`,
          [webhookId],
        );
        return rows[0]?.state === 'delivered' && rows[0];
      },
      { timeoutMs: 15_000, what: 'the delivery to succeed on its second attempt' },
    );
    expect(delivered).toEqual({ state: 'delivered', attempts: 2, last_error: null });
    expect(receiver.received).toHaveLength(2);
    for (const { headers, body } of receiver.received) {
      expect(verifySignature(secret, body, headers[SIGNATURE_HEADER] as string)).toBe(true);
      expect(headers['x-fleet-event']).toBe('approval.waiting');
      expect(JSON.parse(body)).toMatchObject({
        event: 'approval.waiting',
        approvalId: call.body.approvalId,
        callId: call.body.id,
      });
    }
    expect(
      verifySignature(
        'another-secret-entirely',
        receiver.received[0]!.body,
        receiver.received[0]!.headers[SIGNATURE_HEADER] as string,
      ),
    ).toBe(false);
  });

  it('sends nothing to a disabled webhook', async () => {
    await h.request('PATCH', `/api/v1/webhooks/${webhookId}`, { key: admin.key, body: { disabled: true } });
    const before = await h.pool.query('SELECT count(*)::int AS n FROM webhook_delivery');
    await askForReboot(); // the notice is recorded (or not) before the call's answer
    const after = await h.pool.query('SELECT count(*)::int AS n FROM webhook_delivery');
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });

  it('marks a delivery failed, with the last error, once its attempts run out', async () => {
    const failing = await startReceiver([503]);
    const hook = await h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: { url: failing.url, events: ['campaign.paused'] },
    });
    const { rows } = await h.pool.query(
      `INSERT INTO webhook_delivery (id, webhook_id, event, payload) VALUES (gen_random_uuid(), $1, 'campaign.paused', '{"event":"campaign.paused"}') RETURNING id`,
      [hook.body.id],
    );
    const processor = h.api.app.get(WebhookDeliveryProcessor);
    await expect(processor.deliver(rows[0].id, { attemptsMade: 9, opts: { attempts: 10 } })).rejects.toThrow(
      /HTTP 503/,
    );
    const delivery = await h.request('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`, {
      key: admin.key,
    });
    expect(delivery.body[0]).toMatchObject({
      state: 'failed',
      attempts: 10,
      lastError: 'HTTP 503',
      nextAttemptAt: null,
    });
    await new Promise((resolve) => failing.server.close(resolve));
  });
});
