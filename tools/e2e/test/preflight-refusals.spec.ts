import { ESP_HI_LIGHT } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startE2ePlatform, type E2ePlatform } from './platform';

// DESIGN §4 and §5 through the real broker and link: a call pre-flight refuses is answered as a refusal and
// nobody is ever asked; an approval follows its call to the end; a light switch is proven by its own reader once
// a person accepted the pairing the platform proposed.
describe('refusals answered as refusals, approvals that follow their call, a light proven by its reader', () => {
  let p: E2ePlatform;
  let key: string;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${p.apiUrl}/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const approvalsOf = async (callId: string) =>
    (await p.sql.query<{ state: string }>('SELECT state FROM approval WHERE call_id = $1', [callId])).rows;
  const sealed = (callId: string) =>
    waitFor(
      async () => {
        const r = await api('GET', `/calls/${callId}`);
        return r.body['verdict'] ? r.body : undefined;
      },
      { what: `the verdict of ${callId}`, timeoutMs: 20_000 },
    );

  beforeAll(async () => {
    p = await startE2ePlatform();
    key = await p.operatorKey();
  }, 60_000);
  afterAll(() => p?.close());

  it('answers an upgrade outside the registry, or without a URL, with its sealed refusal; no approval ever exists', async () => {
    const device = await p.device('02:e4:00:00:00:01');
    const outside = await api('POST', `/devices/${device.mac}/calls`, {
      tool: 'self.upgrade_firmware',
      arguments: { url: `https://example.com/firmware/${'a'.repeat(64)}.bin` },
    });
    expect(outside.body).toMatchObject({
      state: 'finished',
      verdict: 'rejected',
      verdictReason: expect.stringContaining('registry'),
    });
    expect(outside.body['approvalId']).toBeUndefined();
    const noUrl = await api('POST', `/devices/${device.mac}/calls`, { tool: 'self.upgrade_firmware' });
    expect(noUrl.body).toMatchObject({ state: 'finished', verdict: 'invalid_arguments' });
    expect(await approvalsOf(outside.body['id'] as string)).toEqual([]);
    expect(await approvalsOf(noUrl.body['id'] as string)).toEqual([]);
    const pending = await api('GET', '/approvals?state=pending');
    expect(pending.body['items']).toEqual([]);
  });

  it('closes the approval of a call that expired at its delivery deadline, and of one cancelled, with the call', async () => {
    const device = await p.device('02:e4:00:00:00:02');
    const expiring = await api('POST', `/devices/${device.mac}/calls`, {
      tool: 'self.reboot',
      deliveryDeadlineS: 2,
    });
    expect(expiring.body).toMatchObject({ state: 'awaiting_approval', approvalId: expect.any(String) });
    expect(await sealed(expiring.body['id'] as string)).toMatchObject({ verdict: 'expired' });
    const approval = await api('GET', `/approvals/${String(expiring.body['approvalId'])}`);
    expect(approval.body).toMatchObject({ state: 'expired' });

    const cancelled = await api('POST', `/devices/${device.mac}/calls`, { tool: 'self.reboot' });
    expect(cancelled.body['approvalId']).toEqual(expect.any(String));
    await api('POST', `/calls/${String(cancelled.body['id'])}/cancel`, { reason: 'changed my mind' });
    expect(await sealed(cancelled.body['id'] as string)).toMatchObject({ verdict: 'cancelled' });
    expect(await approvalsOf(cancelled.body['id'] as string)).toEqual([{ state: 'cancelled' }]);
    expect(device.bootCount).toBe(1);
  });

  it('verifies self.light.turn_on by self.light.get_power once a person accepted the proposed pairing', async () => {
    const device = await p.device('02:e4:00:00:00:03', { board: ESP_HI_LIGHT, relayTools: undefined });
    const before = await api('POST', `/devices/${device.mac}/calls`, { tool: 'self.light.turn_on' });
    expect(await sealed(before.body['id'] as string)).toMatchObject({ verdict: 'acknowledged' });

    const proposals = await fetch(`${p.apiUrl}/api/v1/tool-profiles/proposals`, {
      headers: { authorization: `Bearer ${key}` },
    });
    const found = (
      (await proposals.json()) as { id: string; model: string; tool: string; readerTool: string }[]
    ).find((x) => x.model === 'esp-hi' && x.tool === 'self.light.turn_on');
    expect(found).toMatchObject({ readerTool: 'self.light.get_power' });
    expect((await api('POST', `/tool-profiles/proposals/${found!.id}/accept`, {})).status).toBe(201);

    await api('POST', `/devices/${device.mac}/calls`, { tool: 'self.light.turn_off' });
    const on = await api('POST', `/devices/${device.mac}/calls`, { tool: 'self.light.turn_on' });
    const call = await sealed(on.body['id'] as string);
    expect(call).toMatchObject({ verdict: 'verified' });
    const effect = (
      await p.sql.query<{ payload: Record<string, unknown> }>(
        `SELECT payload FROM evidence WHERE call_id = $1 AND stage = 'effect'`,
        [on.body['id']],
      )
    ).rows[0]!.payload;
    expect(effect).toMatchObject({ method: 'readback', observed: true, expected: { path: '', value: true } });
  });
});
