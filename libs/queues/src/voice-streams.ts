import { z } from 'zod';
import type { Redis } from './redis';

// DESIGN §2: audio between the broker (which owns each UDP session and its key) and the voice worker travels
// on Redis Streams. One place names them and says what an entry holds.

export const voiceStreams = {
  /** Session life: opened (with the audio formats both ways) and closed, for the voice workers. */
  sessions: 'voice:sessions',
  /** Decrypted Opus frames from the device, in order. */
  up: (sessionId: string) => `voice:${sessionId}:up`,
  /** Opus frames for the device, and end/close marks, in order. */
  down: (sessionId: string) => `voice:${sessionId}:down`,
  /** A hash device id → session id of the sessions open now (campaigns leave those devices for later). */
  active: 'voice:active',
} as const;

// Deletes the hash entry only if it still names this session (a newer session of the device keeps its entry).
const DELETE_IF_SAME = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0`;

/** The broker, as it opens a session: the device's entry in `voice:active` names it. */
export async function markVoiceSessionActive(redis: Redis, mac: string, sessionId: string): Promise<void> {
  await redis.hset(voiceStreams.active, mac, sessionId);
}

/** The broker, as it closes a session: the entry goes only if it still names this session. */
export async function clearVoiceSessionActive(redis: Redis, mac: string, sessionId: string): Promise<void> {
  await redis.eval(DELETE_IF_SAME, 1, voiceStreams.active, mac, sessionId);
}

/** Which of these devices have a voice session open now (one round trip, whatever their number). */
export async function devicesInConversation(redis: Redis, deviceIds: string[]): Promise<Set<string>> {
  if (deviceIds.length === 0) return new Set();
  const sessions = await redis.hmget(voiceStreams.active, ...deviceIds);
  return new Set(deviceIds.filter((_, i) => sessions[i] !== null));
}

export const audioFormatSchema = z.object({
  sampleRate: z.int().positive(),
  channels: z.int().positive(),
  frameDurationMs: z.int().positive(),
});
export type AudioFormat = z.infer<typeof audioFormatSchema>;

export const voiceSessionEventSchema = z.discriminatedUnion('event', [
  z.object({
    event: z.literal('opened'),
    sessionId: z.string(),
    mac: z.string(),
    connectionId: z.string(),
    brokerId: z.string(),
    /** What the device sends (its hello's audio_params). */
    uplink: audioFormatSchema,
    /** What the broker announced in its hello: the voice worker must produce exactly this. */
    downlink: audioFormatSchema,
    at: z.string(),
  }),
  z.object({
    event: z.literal('closed'),
    sessionId: z.string(),
    mac: z.string(),
    reason: z.string(),
    at: z.string(),
  }),
]);
export type VoiceSessionEvent = z.infer<typeof voiceSessionEventSchema>;

/** A downlink stream entry: one Opus frame, the end of a reply, or a request to close the session. */
export type DownlinkEntry = { kind: 'frame'; opus: Buffer } | { kind: 'end' } | { kind: 'close' };

/** Redis stream fields of a downlink entry (binary-safe: read with xreadBuffer). */
export function downlinkFields(entry: DownlinkEntry): (string | Buffer)[] {
  return entry.kind === 'frame' ? ['kind', 'frame', 'opus', entry.opus] : ['kind', entry.kind];
}

export function readDownlinkFields(fields: Buffer[]): DownlinkEntry | undefined {
  const map = fieldMap(fields);
  const kind = map.get('kind')?.toString();
  if (kind === 'frame') {
    const opus = map.get('opus');
    return opus ? { kind: 'frame', opus } : undefined;
  }
  return kind === 'end' || kind === 'close' ? { kind } : undefined;
}

/** An uplink entry: one decrypted Opus frame with the device's sequence and timestamp. */
export interface UplinkFrame {
  sequence: number;
  timestamp: number;
  opus: Buffer;
}

export function uplinkFields(frame: UplinkFrame): (string | Buffer)[] {
  return ['seq', String(frame.sequence), 'ts', String(frame.timestamp), 'opus', frame.opus];
}

export function readUplinkFields(fields: Buffer[]): UplinkFrame | undefined {
  const map = fieldMap(fields);
  const opus = map.get('opus');
  const sequence = Number(map.get('seq')?.toString());
  const timestamp = Number(map.get('ts')?.toString());
  return opus && Number.isInteger(sequence) && Number.isInteger(timestamp)
    ? { sequence, timestamp, opus }
    : undefined;
}

function fieldMap(fields: Buffer[]): Map<string, Buffer> {
  const map = new Map<string, Buffer>();
  for (let i = 0; i + 1 < fields.length; i += 2) map.set(fields[i]!.toString(), fields[i + 1]!);
  return map;
}
