import { Controller, Delete, Get, HttpCode, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams, ValidQuery } from '../http/validation';
import {
  apiKeyView,
  createApiKeyBody,
  createdApiKeyView,
  listApiKeysQuery,
  type ApiKeyView,
} from './api-keys.schemas';
import { ApiKeysService } from './api-keys.service';

@Controller('api-keys')
export class ApiKeysController {
  constructor(private readonly keys: ApiKeysService) {}

  @Get()
  @Roles('admin')
  @Doc({
    summary: 'List API keys (never their secrets)',
    response: { status: 200, schema: apiKeyView.array() },
  })
  list(@ValidQuery(listApiKeysQuery) q: z.infer<typeof listApiKeysQuery>): Promise<ApiKeyView[]> {
    return this.keys.list(q.operatorId);
  }

  // Not idempotent on purpose: replaying the answer would mean storing the key in plain text.
  @Post()
  @HttpCode(201)
  @Roles('admin')
  @Audited('api_key.create', 'api_key')
  @Doc({
    summary: 'Create an API key for an operator; the key is in this answer only',
    response: { status: 201, schema: createdApiKeyView },
  })
  create(
    @ValidBody(createApiKeyBody) body: z.infer<typeof createApiKeyBody>,
  ): Promise<z.infer<typeof createdApiKeyView>> {
    return this.keys.create(body);
  }

  @Delete(':id')
  @Roles('admin')
  @Audited('api_key.revoke', 'api_key')
  @Doc({
    summary: 'Revoke an API key (it stops working at once)',
    response: { status: 200, schema: apiKeyView },
  })
  revoke(@ValidParams(uuidParams) p: z.infer<typeof uuidParams>): Promise<ApiKeyView> {
    return this.keys.revoke(p.id);
  }
}
