import { INT32_MAX } from '../json/cjson-value';

// DESIGN §3: ListenAI devices get string ids (the seed's are 32 hex digits). The platform allocates ids durably
// per device as numbers (never reused after a restart or failover); the string is that number written as 32 hex
// digits, so the device sees the seed's shape and a reply's id reads back to the request it answers.
const ID_PATTERN = /^[0-9a-f]{32}$/;

export function listenAiRequestId(durableId: number): string {
  if (!Number.isInteger(durableId) || durableId < 0 || durableId > INT32_MAX) {
    throw new RangeError(`durable id ${durableId} is not in 0..2147483647`);
  }
  return durableId.toString(16).padStart(32, '0');
}

/** The durable number a ListenAI id stands for; undefined for an id the platform never sent. */
export function durableIdOfListenAi(id: string): number | undefined {
  if (!ID_PATTERN.test(id)) return undefined;
  if (!/^0{24}/.test(id)) return undefined;
  const n = parseInt(id.slice(24), 16);
  return n <= INT32_MAX ? n : undefined;
}

/**
 * The envelope's `cid` and `sid` for a link (listenai.md): the cloud's connection and session ids. The platform's
 * connection id is a uuid: cid is its 32 hex digits, sid its last 12 (the seed's lengths).
 */
export function listenAiLinkIds(connectionId: string | undefined): { cid: string; sid: string } {
  const hex = (connectionId ?? '').replace(/-/g, '').toLowerCase();
  const cid = /^[0-9a-f]{32}$/.test(hex) ? hex : '0'.repeat(32);
  return { cid, sid: cid.slice(20) };
}
