import type { Call, EvidenceRow, StagePayloads } from '@fleet/api-contract';
import { MESSAGES } from '../i18n/messages';
import { interpolate, type Lang } from '../i18n/translate';
import { explainVerdict, type Translate } from './explain';

const translator =
  (lang: Lang): Translate =>
  (key, params) =>
    interpolate(MESSAGES[lang][key], params);
const en = translator('en');
const zh = translator('zh');

function row<S extends keyof StagePayloads>(stage: S, payload: StagePayloads[S]): EvidenceRow {
  return {
    id: stage,
    seq: '1',
    createdAt: '',
    prevHash: '',
    hash: '',
    stage,
    skipped: false,
    valid: true,
    payload,
  } as EvidenceRow;
}

function call(overrides: Partial<Call>, rows: EvidenceRow[] = []): Call {
  return {
    id: 'c1',
    deviceId: 'a0:85:e3:f4:49:34',
    tool: 'self.audio_speaker.set_volume',
    origin: 'operator',
    operatorId: null,
    campaignId: null,
    state: 'finished',
    verdict: null,
    createdAt: '',
    sealedAt: null,
    arguments: { volume: 40 },
    reason: null,
    apiKeyId: null,
    voiceTurnId: null,
    agentId: null,
    parentCallId: null,
    catalogVersionId: null,
    verdictReason: null,
    verdictMeaning: null,
    jsonrpcId: 7,
    connectionId: null,
    deadlineAt: '',
    replyTimeoutMs: 5000,
    effectDeadlineAt: null,
    sentAt: null,
    result: null,
    cancelledBy: null,
    cancelReason: null,
    approval: null,
    prerequisites: [],
    evidence: { complete: true, missing: [], rows },
    rolledBackLater: null,
    ...overrides,
  };
}

const reply = (text: string) => row('response', { outcome: 'reply', jsonrpcId: 7, text, isError: false });
const readback = (value: number, observed: unknown) =>
  row('effect', {
    method: 'readback',
    expected: { path: 'audio_speaker.volume', value },
    observed,
    conclusion: `read back audio_speaker.volume = ${JSON.stringify(observed)}`,
  });

describe('a verdict explained in words', () => {
  it('says the device answered true but the volume read back otherwise (effect_mismatch)', () => {
    const c = call({ verdict: 'effect_mismatch' }, [reply('true'), readback(40, 70)]);
    expect(explainVerdict(c, en)).toBe('The device answered true but the volume read back as 70, not 40.');
    expect(explainVerdict(c, zh)).toBe('设备回复 true，但回读的音量为 70，而不是 40。');
  });

  it('says the readback matched for a verified set_volume', () => {
    const c = call({ verdict: 'verified' }, [reply('true'), readback(40, 40)]);
    expect(explainVerdict(c, en)).toBe('The device answered true, and the volume read back as 40, as asked.');
  });

  it('credits the readback when no reply came but the change happened', () => {
    const c = call({ verdict: 'verified' }, [
      row('response', { outcome: 'no_reply', timeoutMs: 5000 }),
      readback(40, 40),
    ]);
    expect(explainVerdict(c, en)).toBe('No reply came, but the volume read back as 40: the change happened.');
  });

  it('names a status path it has no words for as it is', () => {
    const effect = row('effect', {
      method: 'readback',
      expected: { path: 'led.color', value: 'red' },
      observed: 'blue',
      conclusion: '',
    });
    const c = call({ verdict: 'effect_mismatch', tool: 'self.led.set_color' }, [reply('true'), effect]);
    expect(explainVerdict(c, en)).toBe('The device answered true but led.color read back as blue, not red.');
  });

  it('explains a reboot verified by the reconnect', () => {
    const effect = row('effect', {
      method: 'reboot_observed',
      conclusion: 'the device checked in after a boot and reconnected',
    });
    const c = call({ verdict: 'verified', tool: 'self.reboot' }, [
      row('response', { outcome: 'no_reply' }),
      effect,
    ]);
    expect(explainVerdict(c, en)).toBe('The device rebooted: it checked in after a boot and reconnected.');
    expect(explainVerdict(c, zh)).toBe('设备已重启：启动后重新报到并重新连接。');
  });

  it('tells a tool that answered "false" from an error the device reported', () => {
    const falsy = call({ verdict: 'device_error', tool: 'self.screen.set_theme' }, [reply('false')]);
    expect(explainVerdict(falsy, en)).toBe(
      'The tool answered “false”: self.screen.set_theme reported that it failed.',
    );
    const error = call({ verdict: 'device_error' }, [
      row('response', { outcome: 'reply', isError: true, errorText: 'Invalid volume' }),
    ]);
    expect(explainVerdict(error, en)).toBe('The device reported an error: Invalid volume');
  });

  it('says how long it waited when nothing came back', () => {
    const c = call({ verdict: 'no_response', tool: 'self.lamp.turn_on' }, [
      row('response', { outcome: 'no_reply', timeoutMs: 3000 }),
    ]);
    expect(explainVerdict(c, en)).toBe(
      'Sent, but no reply came within 3 s, and nothing the platform observed settles it.',
    );
  });

  it('takes an unverifiable tool on the device’s word, and says so', () => {
    const c = call({ verdict: 'acknowledged', tool: 'self.lamp.turn_on' }, [
      reply('true'),
      row('effect', { method: 'unverifiable', conclusion: '' }),
    ]);
    expect(explainVerdict(c, en)).toContain('the platform has no way to observe what self.lamp.turn_on does');
  });

  it('quotes the approving person who refused, and the rule that refused', () => {
    const byPerson = call({ verdict: 'rejected' }, [
      row('decision', {
        requestedBy: { origin: 'operator' },
        request: { tool: 'self.reboot', arguments: {} },
        rules: [],
        outcome: 'rejected',
        approval: { id: 'a', state: 'rejected', reason: 'not during the lesson' },
      }),
    ]);
    expect(explainVerdict(byPerson, en)).toBe('Refused by the approving person: not during the lesson');
    const byPolicy = call({ verdict: 'rejected' }, [
      row('decision', {
        requestedBy: { origin: 'llm' },
        request: { tool: 'self.reboot', arguments: {} },
        rules: [
          {
            rule: 'user-only gate',
            result: 'refused',
            detail: 'user-only tools are never called by the LLM',
          },
        ],
        outcome: 'rejected',
      }),
    ]);
    expect(explainVerdict(byPolicy, en)).toBe(
      'Refused by policy before anything was sent: user-only gate: user-only tools are never called by the LLM.',
    );
  });

  it('lists the schema errors of invalid arguments', () => {
    const c = call({ verdict: 'invalid_arguments' }, [
      row('parameters', {
        arguments: { volume: 40.5 },
        validation: { ok: false, errors: ['volume: must be an integer'] },
        firmwareWouldDo: [],
        limits: [],
      }),
    ]);
    expect(explainVerdict(c, en)).toBe(
      'Not sent: the arguments do not fit the device’s own schema (volume: must be an integer).',
    );
  });

  it('says where an unfinished call stands', () => {
    expect(explainVerdict(call({ state: 'awaiting_approval' }), en)).toBe(
      'Waiting for another person to approve it.',
    );
    expect(explainVerdict(call({ state: 'verifying' }), zh)).toBe(
      '设备已收到请求，平台正在检查效果是否发生。',
    );
  });

  it('falls back on the reason the orchestrator sealed', () => {
    const c = call({ verdict: 'undelivered', verdictReason: 'the device stayed offline until the deadline' });
    expect(explainVerdict(c, en)).toBe('Never sent: the device stayed offline until the deadline.');
  });
});
