import { Injectable } from '@nestjs/common';
import type { ToolProfileBody } from '@fleet/domain';
import type { ProposalRow, ToolProfileRow } from '@fleet/db';
import type { Actor } from '../http/actor';
import { conflict, notFound } from '../http/api-error';
import { ToolProfileStore } from './tool-profiles.repository';

/**
 * Tool profiles (DESIGN §4, §5): what a tool is on every device of a model and catalog. A profile applies to the
 * next call of every matching device (the orchestrator reads it with each call); a per-device marking still
 * overrides it. Proposals are what the platform sees in catalogs in use; only a person turns one into a profile.
 */
@Injectable()
export class ToolProfilesService {
  constructor(private readonly store: ToolProfileStore) {}

  list(filter: { model?: string; tool?: string }): Promise<ToolProfileRow[]> {
    return this.store.profiles.list(filter);
  }

  put(actor: Actor, body: ToolProfileBody): Promise<ToolProfileRow> {
    return this.store.profiles.put(body, actor.operatorId);
  }

  async delete(id: string): Promise<ToolProfileRow> {
    const deleted = await this.store.profiles.delete(id);
    if (!deleted) throw notFound('tool profile', id);
    return deleted;
  }

  /** The pairings discovery recorded when it stored each catalog (orchestrator readback-proposals), in `state`. */
  proposals(state: ProposalRow['state']): Promise<ProposalRow[]> {
    return this.store.proposals.list(state);
  }

  /** Accepting writes the setter's profile (for that catalog) with the reader, and the reader's as a read. */
  async accept(
    actor: Actor,
    id: string,
    change: { path?: string | undefined; settleMs?: number | undefined },
  ): Promise<{ proposal: ProposalRow; profiles: ToolProfileRow[] }> {
    const proposal = await this.decide(actor, id, 'accepted');
    const scope = { model: proposal.model, catalogHash: proposal.catalogHash, doneWhen: 'verified' } as const;
    const setter: ToolProfileBody = {
      ...scope,
      tool: proposal.tool,
      kind: 'action',
      readback: {
        tool: proposal.readerTool,
        arguments: {},
        path: change.path ?? proposal.path,
        ...(proposal.argument === ''
          ? { value: proposal.value as string | number | boolean | null }
          : { argument: proposal.argument }),
        settleMs: change.settleMs ?? 0,
      },
    };
    const profiles = [await this.store.profiles.put(setter, actor.operatorId)];
    const reader = await this.store.profiles.list({ model: proposal.model, tool: proposal.readerTool });
    if (!reader.some((r) => r.catalogHash === '' || r.catalogHash === proposal.catalogHash))
      profiles.push(
        await this.store.profiles.put(
          { ...scope, tool: proposal.readerTool, kind: 'read' },
          actor.operatorId,
        ),
      );
    return { proposal, profiles };
  }

  reject(actor: Actor, id: string): Promise<ProposalRow> {
    return this.decide(actor, id, 'rejected');
  }

  private async decide(actor: Actor, id: string, state: 'accepted' | 'rejected'): Promise<ProposalRow> {
    const decided = await this.store.proposals.decide(id, state, actor.operatorId);
    if (decided) return decided;
    const existing = await this.store.proposals.get(id);
    if (!existing) throw notFound('tool profile proposal', id);
    throw conflict('proposal_decided', `this proposal was ${existing.state} already`);
  }
}
