import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import type { z } from 'zod';
import { toolProfileBodySchema, type ToolProfileBody } from '@fleet/domain';
import type { ProposalRow, ToolProfileRow } from '@fleet/db';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { acceptBody, profileListQuery, proposalListQuery } from './tool-profiles.schemas';
import { ToolProfilesService } from './tool-profiles.service';

type Id = z.infer<typeof uuidParams>;

@Controller('tool-profiles')
export class ToolProfilesController {
  constructor(private readonly profiles: ToolProfilesService) {}

  @Get()
  @Roles('viewer')
  @Doc({
    summary: 'Tool profiles: what a tool is on every device of a model (and catalog), its reader, done-when',
  })
  list(@ValidQuery(profileListQuery) q: z.infer<typeof profileListQuery>): Promise<ToolProfileRow[]> {
    return this.profiles.list(q);
  }

  @Put()
  @Roles('operator')
  @Audited('tool_profile.put', 'tool_profile')
  @Doc({
    summary:
      'Write the profile of one tool of one model (catalogHash "" for every catalog of the model); it applies to ' +
      "the next call of every matching device; a device's own marking still overrides it",
  })
  put(
    @CurrentActor() actor: Actor,
    @ValidBody(toolProfileBodySchema) body: ToolProfileBody,
  ): Promise<ToolProfileRow> {
    return this.profiles.put(actor, body);
  }

  @Delete(':id')
  @Roles('operator')
  @Audited('tool_profile.delete', 'tool_profile')
  @Doc({ summary: 'Delete a profile (the built-in recipes and markings decide again)' })
  delete(@ValidParams(uuidParams) p: Id): Promise<ToolProfileRow> {
    return this.profiles.delete(p.id);
  }

  @Get('proposals')
  @Roles('viewer')
  @Doc({
    summary:
      'Setter/reader pairings discovery saw in each catalog it stored, for a person to accept or reject',
  })
  proposals(@ValidQuery(proposalListQuery) q: z.infer<typeof proposalListQuery>): Promise<ProposalRow[]> {
    return this.profiles.proposals(q.state);
  }

  @Post('proposals/:id/accept')
  @Roles('operator')
  @Audited('tool_profile.proposal.accept', 'tool_profile_proposal')
  @Doc({
    summary:
      "Accept a pairing: the setter's profile gets the reader (path correctable), the reader is a read",
  })
  accept(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: Id,
    @ValidBody(acceptBody) body: z.infer<typeof acceptBody>,
  ) {
    return this.profiles.accept(actor, p.id, body);
  }

  @Post('proposals/:id/reject')
  @Roles('operator')
  @Audited('tool_profile.proposal.reject', 'tool_profile_proposal')
  @Doc({ summary: 'Reject a pairing: it is not proposed again' })
  reject(@CurrentActor() actor: Actor, @ValidParams(uuidParams) p: Id): Promise<ProposalRow> {
    return this.profiles.reject(actor, p.id);
  }
}
