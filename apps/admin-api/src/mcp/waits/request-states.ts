import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { argumentsHash } from '@fleet/platform-client';
import { ADMIN_API_CONFIG, type AdminApiConfig } from '../../config';
import { AgentCallsRepository } from '../agent-calls.repository';
import { checkRequestState, mintRequestState, type RequestStateCheck } from './request-state';

export type StateUse = RequestStateCheck | { ok: false; problem: 'replayed' };

/** Hands out and takes back the `requestState` of MCP 2026-07-28 (signed; consumed once, in Postgres). */
@Injectable()
export class RequestStates {
  private readonly key: Buffer;

  constructor(
    @Inject(ADMIN_API_CONFIG) private readonly config: AdminApiConfig,
    private readonly repo: AgentCallsRepository,
  ) {
    // Development without a configured key: one per process (a state from before a restart is refused).
    this.key = config.MCP_STATE_KEY ? keyOf(config.MCP_STATE_KEY) : randomBytes(32);
  }

  mint(callId: string, agentId: string, request: RequestOfState): string {
    return mintRequestState(this.key, {
      callId,
      agentId,
      argumentsHash: argumentsHash(request.deviceId, request.tool, request.arguments),
      expiresAt: Date.now() + this.config.MCP_STATE_TTL_S * 1000,
    }).state;
  }

  /** Checks a state against the request it came back with, and consumes it: a second use is `replayed`. */
  async use(state: string, agentId: string, request: RequestOfState): Promise<StateUse> {
    const check = checkRequestState(this.key, state, {
      agentId,
      argumentsHash: argumentsHash(request.deviceId, request.tool, request.arguments),
      now: Date.now(),
    });
    if (!check.ok) return check;
    const first = await this.repo.consumeState({
      nonce: check.claims.nonce,
      callId: check.claims.callId,
      agentId,
      expiresAt: new Date(check.claims.expiresAt),
    });
    return first ? check : { ok: false, problem: 'replayed' };
  }
}

export interface RequestOfState {
  deviceId: string;
  tool: string;
  arguments: Record<string, unknown>;
}

function keyOf(text: string): Buffer {
  const key =
    /^[0-9a-f]+$/i.test(text) && text.length % 2 === 0
      ? Buffer.from(text, 'hex')
      : Buffer.from(text, 'base64');
  if (key.length < 32) throw new Error('MCP_STATE_KEY: at least 32 bytes (hex or base64)');
  return key;
}
