import { z } from 'zod';
import { err, ok, type ProtocolError, type Result } from './result';

/** DESIGN §3: a device's id is its MAC, lower case with colons. */
export const CANONICAL_MAC = /^[0-9a-f]{2}(:[0-9a-f]{2}){5}$/;
const MAC_UNDERSCORED = /^[0-9a-f]{2}(_[0-9a-f]{2}){5}$/;
const ANY_MAC = /^[0-9a-fA-F]{2}([:_-]?)[0-9a-fA-F]{2}(\1[0-9a-fA-F]{2}){4}$/;

export const macSchema = z.string().regex(CANONICAL_MAC, 'a MAC in lower case with colons');
export type Mac = z.infer<typeof macSchema>;

export function isCanonicalMac(text: string): boolean {
  return CANONICAL_MAC.test(text);
}

/** Accepts `A0:85:E3:F4:49:34`, `a0-85-…`, `a0_85_…` or `a085e3f44934` (one separator style throughout). */
export function normaliseMac(text: string): Result<Mac, ProtocolError<'invalid_mac'>> {
  const trimmed = text.trim();
  if (!ANY_MAC.test(trimmed)) {
    return err({ kind: 'invalid_mac', message: `not a MAC address: ${JSON.stringify(text)}` });
  }
  const hex = trimmed.replace(/[:_-]/g, '').toLowerCase();
  return ok(hex.match(/../g)!.join(':'));
}

/** xiaozhi §1.3: in topics and client ids the MAC is written with underscores. */
export function macToTopicId(mac: Mac): string {
  return mac.replace(/:/g, '_');
}

export function macFromTopicId(topicId: string): Result<Mac, ProtocolError<'invalid_mac'>> {
  if (!MAC_UNDERSCORED.test(topicId)) {
    return err({
      kind: 'invalid_mac',
      message: `not a lower-case underscored MAC: ${JSON.stringify(topicId)}`,
    });
  }
  return ok(topicId.replace(/_/g, ':'));
}
