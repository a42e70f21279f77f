import { Controller, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import type { Page } from '../http/cursor';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidQuery } from '../http/validation';
import {
  csvBody,
  importedView,
  importQuery,
  serialKeyListQuery,
  serialKeyListView,
} from './serial-keys.schemas';
import type { SerialKeyView } from './serial-keys.repository';
import { SerialKeysService } from './serial-keys.service';

@Controller('serial-keys')
export class SerialKeysController {
  constructor(private readonly keys: SerialKeysService) {}

  @Post()
  @HttpCode(201)
  @Roles('admin')
  @Audited('serial_keys.import', 'serial_keys')
  @Doc({
    summary: 'Import eFuse serial → HMAC key pairs (activation v2); keys are sealed at rest, never shown',
    rawBody: {
      contentType: 'text/csv',
      description:
        '`serial_number,key` per line: the Serial-Number a device sends, its HMAC KEY0 as 64 hex digits',
    },
    response: { status: 201, schema: importedView },
  })
  import(
    @CurrentActor() actor: Actor,
    @ValidQuery(importQuery) q: z.infer<typeof importQuery>,
    @ValidBody(csvBody) csv: Buffer,
  ): Promise<z.infer<typeof importedView>> {
    return this.keys.import(actor, csv, q.replace);
  }

  @Get()
  @Roles('admin')
  @Doc({
    summary: 'The serials that have an imported key, and the device each is bound to (never the keys)',
    response: { status: 200, schema: serialKeyListView },
  })
  list(@ValidQuery(serialKeyListQuery) q: z.infer<typeof serialKeyListQuery>): Promise<Page<SerialKeyView>> {
    return this.keys.list(q.limit, q.cursor);
  }
}
