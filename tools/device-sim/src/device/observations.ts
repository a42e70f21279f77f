import type { DeviceSideServerMessage } from '@fleet/protocol';
import type { OtaLabel } from '../firmware/flash-slots';
import { BoundedLog } from '../util/bounded-log';

export type DeviceState =
  'off' | 'starting' | 'activating' | 'upgrading' | 'idle' | 'connecting' | 'listening' | 'speaking';

/** Counters a test or the CLI summary reads; they survive reboots (they describe the simulation, not the device). */
export interface DeviceStats {
  bootCount: number;
  otaCheckIns: number;
  otaFailures: number;
  mqttConnectCount: number;
  mqttDisconnectCount: number;
  messagesReceived: number;
  repliesSent: number;
  repliesDropped: number;
  crashes: number;
  rollbacks: number;
  upgradesWritten: number;
  upgradesFailed: number;
  flaps: number;
  uplinkPackets: number;
  downlinkPlayed: number;
}

export function newStats(): DeviceStats {
  return {
    bootCount: 0,
    otaCheckIns: 0,
    otaFailures: 0,
    mqttConnectCount: 0,
    mqttDisconnectCount: 0,
    messagesReceived: 0,
    repliesSent: 0,
    repliesDropped: 0,
    crashes: 0,
    rollbacks: 0,
    upgradesWritten: 0,
    upgradesFailed: 0,
    flaps: 0,
    uplinkPackets: 0,
    downlinkPlayed: 0,
  };
}

export interface WireMessage {
  readonly topic: string;
  readonly text: string;
  readonly at: number;
}

export interface CheckInRecord {
  /** HTTP status, or 0 when the request failed before one arrived. */
  readonly status: number;
  readonly version: string;
  readonly otaLabel: OtaLabel;
  readonly at: number;
}

export type UpgradeEvent =
  | { readonly phase: 'started'; readonly url: string }
  | { readonly phase: 'failed'; readonly url: string; readonly reason: string }
  | { readonly phase: 'written'; readonly url: string; readonly version: string; readonly slot: OtaLabel };

export type RestartReason = 'reboot' | 'crash' | 'power-cycle';

export type DownlinkDrop = 'too_short' | 'wrong_type' | 'length_mismatch' | 'stale_sequence' | 'not_speaking';

/** Everything the tests may want to look at afterwards, bounded by `recordLimit`. */
export class Observations {
  readonly received: BoundedLog<WireMessage>;
  readonly published: BoundedLog<WireMessage>;
  readonly checkIns: BoundedLog<CheckInRecord>;
  readonly voiceMessages: BoundedLog<DeviceSideServerMessage>;
  /** Decrypted downlink Opus frames that were played (the device was speaking). */
  readonly playedFrames: BoundedLog<Uint8Array>;
  readonly downlinkDrops: Partial<Record<DownlinkDrop, number>> = {};

  constructor(limit: number) {
    this.received = new BoundedLog(limit);
    this.published = new BoundedLog(limit);
    this.checkIns = new BoundedLog(limit);
    this.voiceMessages = new BoundedLog(limit);
    this.playedFrames = new BoundedLog(limit);
  }

  /** Times a tools/call request with this JSON-RPC id was received (ids are never reused per device). */
  toolCallsReceived(jsonrpcId: number): number {
    return this.received.all.filter((m) => {
      try {
        const { payload } = JSON.parse(m.text) as { payload?: { id?: unknown; method?: string } };
        return payload?.method === 'tools/call' && payload.id === jsonrpcId;
      } catch {
        return false;
      }
    }).length;
  }
}

export interface DeviceEventMap {
  boot: [bootCount: number];
  'check-in': [CheckInRecord];
  /** One POST to /activate and its status (0: not sent, or no answer). */
  activation: [status: number];
  connected: [];
  disconnected: [reason: string];
  message: [WireMessage];
  published: [WireMessage];
  reply: [payload: string];
  state: [DeviceState];
  upgrade: [UpgradeEvent];
  'rolled-back': [version: string];
  crashed: [reason: string];
  restarting: [RestartReason];
  'session-opened': [sessionId: string];
  'session-closed': [byServer: boolean];
  'voice-message': [DeviceSideServerMessage];
  audio: [opus: Uint8Array];
  /** Something a real device would only log (and an alert it would show). */
  warning: [message: string];
}
