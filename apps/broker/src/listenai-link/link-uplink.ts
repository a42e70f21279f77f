import { fleetUplinkTopic, listenAiActionOf, type Mac, type UplinkKind } from '@fleet/protocol';
import { idRandomness } from '../util/random-pool';

export interface WrappedLinkUplink {
  topic: string;
  payload: Buffer;
  kind: UplinkKind;
}

/**
 * DESIGN §2 for the ListenAI link: the same wrapper as an MQTT uplink, `raw` the exact bytes of the frame and
 * the dialect named, on fleet/devices/<mac_>/up/<kind> by the link's authenticated device. The link is opened
 * for MCP (param {"mcp":true}), so every frame is MCP unless it names another action; a frame that is not even
 * JSON goes to MCP too, where the orchestrator counts it and keeps it raw.
 *
 * Written by hand, as the MQTT wrapper is (mqtt/uplink-wrapper.ts): every field is ASCII the broker made.
 */
export function wrapLinkUplink(
  mac: Mac,
  connectionId: string,
  raw: Buffer,
  binary: boolean,
  receivedAt = new Date(),
): WrappedLinkUplink {
  const action = binary ? 'binary' : listenAiActionOf(raw);
  const kind: UplinkKind = action === undefined || action === 'mcp' ? 'mcp' : 'other';
  const traceparent = `00-${idRandomness.hex(16)}-${idRandomness.hex(8)}-01`;
  const json =
    `{"mac":"${mac}","connectionId":"${connectionId}","receivedAt":"${receivedAt.toISOString()}",` +
    `"traceparent":"${traceparent}","raw":"${raw.toString('base64')}","dialect":"listenai"}`;
  return { topic: fleetUplinkTopic(mac, kind), payload: Buffer.from(json, 'latin1'), kind };
}
