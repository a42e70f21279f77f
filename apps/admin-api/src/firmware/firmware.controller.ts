import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import { Idempotent } from '../idempotency/idempotent-requests';
import { firmwareView, imageBody, uploadedView, uploadQuery, type FirmwareView } from './firmware.schemas';
import { FirmwareService } from './firmware.service';

@Controller('firmware')
export class FirmwareController {
  constructor(private readonly firmware: FirmwareService) {}

  @Post()
  @HttpCode(201)
  @Roles('admin')
  @Idempotent()
  @Audited('firmware.upload', 'firmware')
  @Doc({
    summary:
      'Upload a firmware image (.bin); verified as the bootloader does (segments, checksum, SHA-256, descriptor) and against the boards',
    rawBody: {
      contentType: 'application/octet-stream',
      description: 'the application image as built (xiaozhi.bin)',
    },
    response: { status: 201, schema: uploadedView },
  })
  upload(
    @CurrentActor() actor: Actor,
    @ValidQuery(uploadQuery) q: z.infer<typeof uploadQuery>,
    @ValidBody(imageBody) image: Buffer,
  ): Promise<z.infer<typeof uploadedView>> {
    return this.firmware.upload(actor, image, q.boards);
  }

  @Get()
  @Roles('viewer')
  @Doc({
    summary: 'The firmware registry, newest first',
    response: { status: 200, schema: firmwareView.array() },
  })
  list(): Promise<FirmwareView[]> {
    return this.firmware.list();
  }

  @Get(':id')
  @Roles('viewer')
  @Doc({ summary: 'One registered firmware', response: { status: 200, schema: firmwareView } })
  get(@ValidParams(uuidParams) p: z.infer<typeof uuidParams>): Promise<FirmwareView> {
    return this.firmware.get(p.id);
  }
}
