import type { SimDevice } from '@fleet/device-sim';
import { waitFor } from '@fleet/testing';
import { startPlatform, type Platform } from '../../test/platform-fixture';

const toolsCallsSeenBy = (device: SimDevice, tool: string) =>
  device.observed.received.all.filter((m) => m.text.includes('"tools/call"') && m.text.includes(`"${tool}"`))
    .length;

describe('the call pipeline through the real broker', () => {
  let p: Platform;
  let operator: string;

  beforeAll(async () => {
    p = await startPlatform();
    operator = await p.operator();
  });
  afterAll(() => p.close());

  it('verifies a set_volume by reading the volume back, with five evidence rows in chain order', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 40 },
      origin: 'operator',
      operatorId: operator,
    });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({ verdict: 'verified', state: 'finished' });
    expect(device.volume).toBe(40);
    const rows = await p.evidence(callId);
    expect(rows.map((r) => r.stage)).toEqual(['discovery', 'decision', 'parameters', 'response', 'effect']);
    expect(rows[4]!.payload).toMatchObject({ method: 'readback', observed: 40 });
    expect(rows[3]!.payload).toMatchObject({ outcome: 'reply', text: 'true' });
  });

  it('runs get_device_status first when set_volume has no fresh status, as the tool description demands', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 33 },
      origin: 'llm',
    });
    expect((await p.waitVerdict(callId)).verdict).toBe('verified');
    const { rows } = await p.sql.query(`SELECT tool, origin, verdict FROM call WHERE parent_call_id = $1`, [
      callId,
    ]);
    expect(rows).toEqual([{ tool: 'self.get_device_status', origin: 'system', verdict: 'verified' }]);
    const decision = (await p.evidence(callId)).find((r) => r.stage === 'decision')!.payload;
    expect(decision['priorState']).toMatchObject({ tool: 'self.get_device_status' });
    expect(JSON.stringify(decision['rules'])).toContain('satisfied_by_prerequisite');
  });

  it('calls a lying device effect_mismatch: "true" but the readback says otherwise', async () => {
    const device = await p.device({ faults: { lie: true } });
    const callId = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 10 },
      origin: 'operator',
      operatorId: operator,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('effect_mismatch');
    expect(call.verdict_reason).toContain('not 10');
  });

  it('ends no_response when replies are dropped and the readback cannot settle it', async () => {
    const device = await p.device();
    const status = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: operator,
    });
    expect((await p.waitVerdict(status)).verdict).toBe('verified'); // fresh: no prerequisite needed below
    device.setFaults({ dropReplies: 1 });
    const callId = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 20 },
      origin: 'operator',
      operatorId: operator,
      replyTimeoutMs: 500,
    });
    expect((await p.waitVerdict(callId)).verdict).toBe('no_response');
    const response = (await p.evidence(callId)).find((r) => r.stage === 'response')!.payload;
    expect(response).toMatchObject({ outcome: 'no_reply', timeoutMs: 500 });
  });

  it('ends undelivered at the deadline for a device that stays offline', async () => {
    const device = await p.device();
    await p.takeOffline(device);
    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: operator,
      deliveryDeadlineMs: 1_000,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('undelivered');
    expect((await p.evidence(callId)).map((r) => r.stage)).toEqual([
      'discovery',
      'decision',
      'parameters',
      'response',
      'effect',
    ]);
  });

  it('settles a call left "sending" by a step that lost its lease, once no reply can still come', async () => {
    const device = await p.device();
    await p.takeOffline(device);
    const callId = await p.call({
      device,
      tool: 'self.get_device_status',
      origin: 'operator',
      operatorId: operator,
      deliveryDeadlineMs: 600_000,
    });
    await waitFor(
      async () =>
        (await p.sql.query('SELECT state FROM call WHERE id = $1', [callId])).rows[0].state ===
        'waiting_for_device',
    );
    // What a replica that lost and retook the partition leaves behind: the row says sent, nobody runs it.
    await p.sql.query(
      `UPDATE call SET state = 'sending', jsonrpc_id = 77, sent_at = now() - interval '10 minutes' WHERE id = $1`,
      [callId],
    );
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('no_response');
    const response = (await p.evidence(callId)).find((r) => r.stage === 'response')!.payload;
    expect(response).toMatchObject({ outcome: 'no_reply' });
  });

  it('refuses out-of-range or coercible arguments as invalid_arguments before anything reaches the device', async () => {
    const device = await p.device();
    for (const args of [{ volume: 101 }, { volume: 40.5 }, { Volume: 80, volume: 30 }]) {
      const callId = await p.call({
        device,
        tool: 'self.audio_speaker.set_volume',
        arguments: args,
        origin: 'operator',
        operatorId: operator,
      });
      const call = await p.waitVerdict(callId);
      expect(call.verdict).toBe('invalid_arguments');
    }
    expect(toolsCallsSeenBy(device, 'self.audio_speaker.set_volume')).toBe(0);
    const fraction = await p.sql.query<{ id: string }>(
      `SELECT id FROM call WHERE device_id = $1 AND verdict = 'invalid_arguments' ORDER BY created_at LIMIT 1 OFFSET 1`,
      [device.mac],
    );
    const params = (await p.evidence(fraction.rows[0]!.id)).find((r) => r.stage === 'parameters')!.payload;
    expect(JSON.stringify(params['firmwareWouldDo'])).toContain('integer_truncated');
  });

  it('rejects a call that breaks a group limit, as policy', async () => {
    const device = await p.device();
    const group = await p.sql.query(
      `INSERT INTO device_group (id, name, limits, updated_at) VALUES (gen_random_uuid(), 'quiet rooms', $1, now()) RETURNING id`,
      [JSON.stringify({ 'self.audio_speaker.set_volume': { volume: { maximum: 70 } } })],
    );
    await p.sql.query('INSERT INTO device_group_member (device_id, group_id) VALUES ($1, $2)', [
      device.mac,
      group.rows[0].id,
    ]);
    const callId = await p.call({
      device,
      tool: 'self.audio_speaker.set_volume',
      arguments: { volume: 80 },
      origin: 'operator',
      operatorId: operator,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('rejected');
    expect(call.verdict_reason).toContain('volume <= 70');
  });

  it('ends device_error when a tool answers "false", as set_theme does for a theme it lacks', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.screen.set_theme',
      arguments: { theme: 'purple' },
      origin: 'operator',
      operatorId: operator,
    });
    const call = await p.waitVerdict(callId);
    expect(call.verdict).toBe('device_error');
    expect(call.verdict_reason).toContain('false');
  });

  it('rejects a tool the device does not have, without sending anything', async () => {
    const device = await p.device();
    const callId = await p.call({
      device,
      tool: 'self.no_such_tool',
      origin: 'operator',
      operatorId: operator,
    });
    const call = await p.waitVerdict(callId);
    expect(call).toMatchObject({
      verdict: 'rejected',
      verdict_reason: 'the device has no tool named self.no_such_tool',
    });
    expect(toolsCallsSeenBy(device, 'self.no_such_tool')).toBe(0);
  });
});
