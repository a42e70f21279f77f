import { randomUUID } from 'node:crypto';
import { parseLinkToken, verifyLinkTokenSecret } from '@fleet/auth';
import {
  hashClientId,
  readLinkRequest,
  type LinkCloseKind,
  type LinkUpgrade,
  type Mac,
} from '@fleet/protocol';
import type { LinkTokenRepository } from './link-token.repository';

/** Who holds a link, decided once when it opens. */
export interface LinkIdentity {
  readonly mac: Mac;
  readonly connectionId: string;
  /**
   * Names the token in presence history, as the Client-Id's hash names an MQTT session: the hash of
   * `listenai:<token prefix>` (the prefix is no secret, but connection rows keep one kind of value).
   */
  readonly clientIdHash: string;
  readonly tokenId: string;
  readonly keepalive: number;
  readonly remoteAddress?: string;
}

export type LinkAuthResult =
  | { ok: true; identity: LinkIdentity }
  /** `refusal` is the close frame's kind and the metric label; the device learns the reason text. */
  | { ok: false; refusal: LinkCloseKind };

/**
 * Decides a link before any frame is read (DESIGN §3): the request must opt into MCP and present a token the
 * platform issued for an active ListenAI device and has not revoked.
 */
export class LinkAuthenticator {
  constructor(
    private readonly tokens: LinkTokenRepository,
    private readonly keepaliveSeconds: number,
  ) {}

  async authenticate(upgrade: LinkUpgrade, remoteAddress: string | undefined): Promise<LinkAuthResult> {
    const request = readLinkRequest(upgrade);
    if (!request.ok) {
      switch (request.error.kind) {
        case 'no_mcp_opt_in':
        case 'no_param':
        case 'unreadable_param':
          return { ok: false, refusal: 'no_mcp_opt_in' };
        case 'no_token':
          return { ok: false, refusal: 'no_token' };
        case 'wrong_path':
          return { ok: false, refusal: 'bad_request' };
      }
    }
    const parsed = parseLinkToken(request.value.token);
    if (!parsed) return { ok: false, refusal: 'unknown_token' };
    let record;
    try {
      record = await this.tokens.findByPrefix(parsed.prefix);
    } catch {
      return { ok: false, refusal: 'registry_unavailable' };
    }
    if (!record || !verifyLinkTokenSecret(parsed.secret, record.secretHash)) {
      return { ok: false, refusal: 'unknown_token' };
    }
    if (record.revoked) return { ok: false, refusal: 'token_revoked' };
    if (record.dialect !== 'listenai') return { ok: false, refusal: 'not_listenai' };
    switch (record.deviceStatus) {
      case 'revoked':
        return { ok: false, refusal: 'device_revoked' };
      case 'decommissioned':
        return { ok: false, refusal: 'device_decommissioned' };
      case 'awaiting_activation':
        return { ok: false, refusal: 'device_not_active' };
      case 'active':
        break;
    }
    return {
      ok: true,
      identity: {
        mac: record.deviceId,
        connectionId: randomUUID(),
        clientIdHash: linkClientIdHash(parsed.prefix),
        tokenId: record.tokenId,
        keepalive: this.keepaliveSeconds,
        ...(remoteAddress ? { remoteAddress } : {}),
      },
    };
  }
}

/** What a link's presence rows name it by: derived from its token's prefix. */
export function linkClientIdHash(tokenPrefix: string): string {
  return hashClientId(`listenai:${tokenPrefix}`);
}
