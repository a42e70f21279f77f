import type { CallRecord } from './call-record';
import { decisionRow, discoveryRow, parametersNotChecked, responseNotSent } from './evidence-builders';

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
});
