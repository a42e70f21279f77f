import type { LinkCloseKind } from '@fleet/protocol';
import type { CloseReason } from '../presence/presence-tracker';

/** The presence reason (connection history, `broker_disconnects_total`) of a link the platform closed. */
export function presenceReasonOf(kind: LinkCloseKind): CloseReason {
  switch (kind) {
    case 'takeover':
      return 'takeover';
    case 'rate_limit':
      return 'refused_publish';
    case 'broker_shutdown':
      return 'broker_shutdown';
    case 'device_revoked':
      return 'revoked';
    case 'device_decommissioned':
      return 'decommissioned';
    case 'token_revoked':
      return 'token_revoked';
    case 'frame_too_large':
    case 'binary_frame':
    case 'bad_request':
    case 'no_mcp_opt_in':
    case 'no_token':
    case 'unknown_token':
    case 'device_not_active':
    case 'not_listenai':
    case 'registry_unavailable':
      return 'protocol_error';
  }
}
