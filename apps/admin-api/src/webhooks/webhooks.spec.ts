import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { passPreflight, waitFor } from '@fleet/testing';
import { insertCatalog } from '../../test/fixtures';
import { insertDevices, startHarness, type Harness, type Person } from '../../test/harness';
import type { LookupAddress } from 'node:dns';
import { createMetricsRegistry } from '@fleet/telemetry';
import { loadAdminApiConfig } from '../config';
import { Notices } from '../infra/notices';
import { WebhookDeliveryProcessor } from './webhook-delivery.processor';
import { SIGNATURE_HEADER, verifySignature } from './webhook-signature';
import { TargetRefusedError, WebhookTargetGuard } from './webhook-target-guard';

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

  /**
   * A reboot that waits for a person: the API records it, and the orchestrator's runner announces the approval
   * once pre-flight has passed it (DESIGN §4). No orchestrator runs here, so the test announces it as the runner
   * does, through the same notifier.
   */
  const askForReboot = async () => {
    const call = await h.request('POST', `/api/v1/devices/${device}/calls`, {
      key: operator.key,
      body: { tool: 'self.reboot' },
    });
    call.body.approvalId = await passPreflight(h.pool, call.body.id);
    await h.api.app.get(Notices).webhook('approval.waiting', {
      approvalId: call.body.approvalId,
      callId: call.body.id,
      deviceId: device,
      tool: 'self.reboot',
    });
    return call;
  };

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

  it.each([
    ['http://127.0.0.2:8080/hook', 'loopback'],
    ['http://[::1]/hook', 'loopback'],
    ['http://[::ffff:10.0.0.1]/hook', 'private'],
    ['https://192.168.10.20/hook', 'private'],
    ['http://169.254.169.254/latest/meta-data', 'link-local'],
  ])(
    'refuses a webhook to %s (%s) unless the allow-list covers it, naming the field',
    async (url, reason) => {
      const r = await h.request('POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url, events: ['campaign.paused'] },
      });
      expect(r.status).toBe(400);
      expect(r.body.issues).toEqual([
        { field: 'body.url', message: expect.stringContaining(`a ${reason} address`) },
      ]);
      const moved = await h.request('PATCH', `/api/v1/webhooks/${webhookId}`, {
        key: admin.key,
        body: { url },
      });
      expect(moved.status).toBe(400);
    },
  );

  /**
   * A delivery to a webhook whose URL is `url` as if it had been set when it was still allowed (the row says what a
   * delivery must check again): one attempt, as the worker makes it, and the delivery's row after it.
   */
  const deliverToStaleTarget = async (url: string) => {
    const hook = await h.request('POST', '/api/v1/webhooks', {
      key: admin.key,
      body: { url: receiver.url, events: ['campaign.paused'] },
    });
    await h.pool.query(`UPDATE webhook SET url = $2 WHERE id = $1`, [hook.body.id, url]);
    const { rows } = await h.pool.query(
      `INSERT INTO webhook_delivery (id, webhook_id, event, payload) VALUES (gen_random_uuid(), $1, 'campaign.paused', '{}') RETURNING id`,
      [hook.body.id],
    );
    const processor = h.api.app.get(WebhookDeliveryProcessor);
    await processor.deliver(rows[0].id, { attemptsMade: 0, opts: { attempts: 10 } });
    const delivery = await h.request('GET', `/api/v1/webhooks/${hook.body.id}/deliveries`, {
      key: admin.key,
    });
    return delivery.body[0];
  };

  it('refuses at delivery a target that became private since it was set, without retrying, and counts it', async () => {
    expect(await deliverToStaleTarget('http://10.255.0.1:9/hook')).toMatchObject({
      state: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      lastError: expect.stringContaining('10.255.0.1 is a private address'),
    });
    const metrics = await h.request('GET', '/metrics');
    expect(metrics.text).toMatch(/admin_api_webhook_targets_refused_total\{[^}]*when="delivery"[^}]*\} 1\n/);
    expect(metrics.text).toMatch(
      /admin_api_webhook_targets_refused_total\{[^}]*when="create"[^}]*reason="loopback"[^}]*\} 2\n/,
    );
  });

  it.each([
    // 127.0.0.2: the harness allows 127.0.0.1 itself (its receiver listens there).
    ['http://[64:ff9b::7f00:2]/hook', 'loopback', 'NAT64 of 127.0.0.2'],
    ['http://[::127.0.0.2]/hook', 'loopback', 'IPv4-compatible of 127.0.0.2'],
    ['http://[2002:7f00:2::]/hook', 'loopback', '6to4 of 127.0.0.2'],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffd]/hook', 'loopback', 'Teredo of 127.0.0.2'],
    ['https://[64:ff9b:1::a00:1]:8443/hook', 'private', 'local-use NAT64 of 10.0.0.1'],
  ])(
    'refuses a webhook to %s, an IPv6 form of a %s address (%s), naming the field',
    async (url, reason, via) => {
      const r = await h.request('POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url, events: ['campaign.paused'] },
      });
      expect(r.status).toBe(400);
      expect(r.body.issues).toEqual([
        { field: 'body.url', message: expect.stringContaining(`a ${reason} address (${via})`) },
      ]);
    },
  );

  it('accepts IPv6 forms of a public IPv4 address', async () => {
    for (const url of ['http://[64:ff9b::5db8:d70e]/hook', 'http://[2002:5db8:d70e::1]/hook']) {
      const r = await h.request('POST', '/api/v1/webhooks', {
        key: admin.key,
        body: { url, events: ['campaign.paused'] },
      });
      expect([url, r.status]).toEqual([url, 201]);
      await h.pool.query('UPDATE webhook SET disabled = true WHERE id = $1', [r.body.id]);
    }
  });

  it('refuses at delivery a target set as the NAT64 form of a private address, without retrying', async () => {
    expect(await deliverToStaleTarget('http://[64:ff9b::a00:1]:9/hook')).toMatchObject({
      state: 'failed',
      attempts: 1,
      nextAttemptAt: null,
      lastError: expect.stringContaining('64:ff9b::a00:1 is a private address (NAT64 of 10.0.0.1)'),
    });
  });
});

describe('the resolver webhook deliveries connect through', () => {
  const guard = (allowed: string) =>
    new WebhookTargetGuard(
      loadAdminApiConfig({ WEBHOOK_ALLOWED_TARGETS: allowed }),
      createMetricsRegistry('t'),
    );
  const lookup = (g: WebhookTargetGuard, name: string) =>
    new Promise<{ err: Error | null; addresses: LookupAddress[] }>((resolve) =>
      g.lookup(name, { all: true }, (err, addresses) =>
        resolve({ err, addresses: addresses as LookupAddress[] }),
      ),
    );

  it('refuses a name that resolves to a loopback address at the moment of connecting', async () => {
    const { err } = await lookup(guard(''), 'localhost');
    expect(err).toBeInstanceOf(TargetRefusedError);
    expect((err as TargetRefusedError).reason).toBe('loopback');
  });

  it('lets a name through when the allow-list covers every address it resolves to', async () => {
    const { err, addresses } = await lookup(guard('127.0.0.0/8,::1'), 'localhost');
    expect(err).toBeNull();
    expect(addresses.length).toBeGreaterThan(0);
  });
});
