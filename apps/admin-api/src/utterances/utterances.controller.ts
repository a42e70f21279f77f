import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import { z } from 'zod';
import { Audited } from '../audit/audited';
import { deviceIdParams, uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import type { TurnRow } from './utterances.repository';
import { UtterancesService } from './utterances.service';

const utteranceBody = z.strictObject({
  text: z.string().trim().min(1).max(2000),
  language: z.string().min(2).max(35).optional().describe('BCP 47, e.g. zh-CN'),
});
const turnView = z.object({ id: z.uuid(), state: z.string() });

@Controller()
export class UtterancesController {
  constructor(private readonly utterances: UtterancesService) {}

  @Post('devices/:id/utterances')
  @HttpCode(202)
  @Roles('operator')
  @Idempotent()
  @Audited('utterance.create', 'voice_turn')
  @Doc({
    summary: "A voice turn from text, as if the device's user said it",
    response: { status: 202, schema: turnView },
  })
  create(
    @ValidParams(deviceIdParams) p: z.infer<typeof deviceIdParams>,
    @ValidBody(utteranceBody) body: z.infer<typeof utteranceBody>,
  ) {
    return this.utterances.create(p.id, body.text, body.language);
  }

  @Get('utterances/:id')
  @Roles('operator')
  @Doc({ summary: 'A voice turn: transcript (unless retention deleted it), tool calls with verdicts, reply' })
  get(@ValidParams(uuidParams) p: z.infer<typeof uuidParams>): Promise<TurnRow> {
    return this.utterances.get(p.id);
  }
}
