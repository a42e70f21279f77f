import type { DiscoveryPayload, EffectPayload, ParametersPayload, ResponsePayload } from '@fleet/domain';
import type { AnnouncementArguments } from '@fleet/domain';
import type { SpokenDelivery } from '../verification/announcement-judgement';

// The five rows of an announcement (DESIGN §1), in the shapes of libs/domain evidence-payloads. The content is
// kept in the decision and parameters rows: what was said is part of the proof.

export function announcementDiscovery(device: {
  board: string | null;
  firmwareVersion: string | null;
  dialect: string;
}): DiscoveryPayload {
  return {
    board: device.board,
    firmwareVersion: device.firmwareVersion,
    dialect: device.dialect,
    catalog: null,
    tool: null,
    note: 'an announcement needs no tool catalog: alert and tts are firmware messages (xiaozhi §2.2)',
  };
}

export function announcementParameters(
  args: AnnouncementArguments,
  sentAlert: unknown,
  limits: ParametersPayload['limits'] = [],
): ParametersPayload {
  return {
    arguments: args,
    validation: { ok: true, errors: [] },
    firmwareWouldDo: [],
    limits,
    ...(sentAlert === undefined ? {} : { sent: sentAlert }),
    bytes: Buffer.byteLength(args.text, 'utf8'),
  };
}

export function alertResponse(connectionId: string | undefined, sentAt: Date): ResponsePayload {
  return {
    outcome: 'no_reply',
    ...(connectionId ? { connectionId } : {}),
    sentAt: sentAt.toISOString(),
    reason: 'the firmware answers an alert with nothing (xiaozhi §2.2)',
    alert: 'published',
  };
}

export function spokenResponse(
  d: SpokenDelivery | undefined,
  alert: { connectionId: string | null; sentAt: Date | null },
): ResponsePayload {
  const alerted = alert.sentAt
    ? {
        alert: 'published',
        sentAt: alert.sentAt.toISOString(),
        ...(alert.connectionId ? { connectionId: alert.connectionId } : {}),
      }
    : {};
  if (!d) return { outcome: 'no_reply', ...alerted, reason: 'no voice session was opened in time' };
  const heard = d.heard === 'listen_start' || d.heard === 'idle';
  return {
    outcome: heard && d.heardAt ? 'reply' : 'no_reply',
    ...alerted,
    session: d.sessionId,
    speakingAt: d.speakingAt.toISOString(),
    ...(d.ttsStoppedAt ? { ttsStoppedAt: d.ttsStoppedAt.toISOString() } : {}),
    ...(d.heardAt ? { receivedAt: d.heardAt.toISOString() } : {}),
    ...(d.heard ? { text: d.heard } : {}),
    ...(d.ttsStoppedAt && d.heardAt ? { latencyMs: d.heardAt.getTime() - d.ttsStoppedAt.getTime() } : {}),
    ...(d.synthesisError ? { errorText: d.synthesisError } : {}),
  };
}

export function announcementEffect(
  method: 'alert_published' | 'playback_observed',
  conclusion: string,
  observed?: unknown,
): EffectPayload {
  return { method, conclusion, ...(observed === undefined ? {} : { observed }) };
}
