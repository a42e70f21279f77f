import type { CallRecord } from '../calls/call-record';
import {
  completeRows,
  decisionRow,
  discoveryRow,
  parametersNotChecked,
  rebootEffect,
  responseNotSent,
  sentParameters,
  systemMessageResponse,
  takenOverEffect,
  takenOverRebootResponse,
  toolCallEffect,
} from './evidence-rows';

const call = {
  id: 'c',
  tool: 'self.audio_speaker.set_volume',
  arguments: { volume: 40 },
  origin: 'llm',
  reason: null,
  operatorId: null,
  apiKeyId: null,
  voiceTurnId: 'turn-1',
  campaignId: null,
  agentId: null,
  parentCallId: null,
  requestContext: { llmToolCall: { name: 'set_volume' }, utteranceHash: 'a'.repeat(64) },
} as unknown as CallRecord;

describe('the evidence row builders', () => {
  it("write who asked and the LLM's exact tool call into the decision row, never the utterance text", () => {
    const row = decisionRow(call, 'allowed', [{ rule: 'user-only gate', result: 'passed' }]);
    expect(row).toMatchObject({
      requestedBy: { origin: 'llm', voiceTurnId: 'turn-1' },
      request: { tool: call.tool, arguments: { volume: 40 }, llmToolCall: { name: 'set_volume' } },
      outcome: 'allowed',
    });
    expect(row.request).toHaveProperty('utteranceHash', 'a'.repeat(64));
  });

  it('say why a stage did not happen', () => {
    expect(discoveryRow({ board: null, firmwareVersion: null }, undefined, undefined, false)).toMatchObject({
      catalog: null,
      note: expect.stringContaining('not discovered'),
    });
    expect(parametersNotChecked(call, 'rejected: policy').validation).toMatchObject({
      skipped: 'rejected: policy',
    });
    expect(responseNotSent('expired: nobody approved')).toEqual({
      outcome: 'not_sent',
      reason: 'expired: nobody approved',
    });
  });

  it('fill every stage a sealed call did not reach, the decision outcome following the verdict', () => {
    const rows = completeRows(call, { verdict: 'expired', reason: 'nobody approved it in time', rows: {} });
    expect(Object.keys(rows)).toEqual(['discovery', 'decision', 'parameters', 'response', 'effect']);
    expect(rows.decision).toMatchObject({ outcome: 'expired', reason: 'nobody approved it in time' });
    expect(rows.response).toEqual({ outcome: 'not_sent', reason: 'expired: nobody approved it in time' });
    expect(rows.effect).toEqual({
      method: 'not_applicable',
      conclusion: 'not sent (expired: nobody approved it in time)',
    });
    const policy = completeRows(call, { verdict: 'invalid_arguments', reason: 'volume > 100', rows: {} });
    expect(policy.decision).toMatchObject({ outcome: 'rejected' });
    const sent = completeRows(call, { verdict: 'acknowledged', reason: 'replied', rows: {} });
    expect(sent.decision).toMatchObject({ outcome: 'allowed' });
    expect(sent.effect).toEqual({ method: 'not_applicable', conclusion: 'replied' });
  });

  it('keep the stored shapes and their key order (the seal hashes the rows as written)', () => {
    const at = new Date('2026-12-02T00:00:00.000Z');
    expect(JSON.stringify(systemMessageResponse('conn-1', at))).toBe(
      '{"outcome":"no_reply","connectionId":"conn-1","sentAt":"2026-12-02T00:00:00.000Z",' +
        '"reason":"a system message has no reply (xiaozhi §2.2)"}',
    );
    expect(JSON.stringify(takenOverRebootResponse('conn-1'))).toBe(
      '{"outcome":"no_reply","reason":"the replica that sent it stopped before a reply was paired",' +
        '"connectionId":"conn-1"}',
    );
    expect(JSON.stringify(rebootEffect('2.5.0', 'runs 2.5.0', { boot: true }))).toBe(
      '{"method":"version_observed","conclusion":"runs 2.5.0","expected":"2.5.0","observed":{"boot":true}}',
    );
    expect(rebootEffect(undefined, 'rebooted', {})).toMatchObject({
      method: 'reboot_observed',
      expected: 'a boot check-in and a new connection',
    });
    expect(takenOverEffect({ kind: 'unverifiable' }).method).toBe('unverifiable');
    expect(JSON.stringify(sentParameters({ arguments: { volume: 40 }, limits: [] }, { name: 't' }))).toBe(
      '{"arguments":{"volume":40},"limits":[],"sent":{"name":"t"}}',
    );
  });

  it('name the effect check by the recipe, and none when the device refused', () => {
    const judged = { verdict: 'verified' as const, effect: 'read back 40' };
    expect(toolCallEffect({ kind: 'read_only' }, judged, {}).method).toBe('reply_is_effect');
    expect(toolCallEffect({ kind: 'unverifiable' }, judged, {}).method).toBe('unverifiable');
    expect(toolCallEffect({ kind: 'read_only' }, { verdict: 'device_error', effect: 'refused' }, {})).toEqual(
      { method: 'not_applicable', conclusion: 'refused' },
    );
  });
});
