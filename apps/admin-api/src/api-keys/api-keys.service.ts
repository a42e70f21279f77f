import { Injectable } from '@nestjs/common';
import { generateApiKey, roleAllows } from '@fleet/auth';
import type { z } from 'zod';
import { notFound, unprocessable } from '../http/api-error';
import { OperatorsRepository } from '../operators/operators.repository';
import { ApiKeysRepository, type ApiKeyRecord } from './api-keys.repository';
import type { ApiKeyView, createApiKeyBody, createdApiKeyView } from './api-keys.schemas';

/**
 * Keys belong to a person and never carry more than that person's role. The secret is shown once. A key may be
 * bounded to device groups (an agent's reach): auth/device-scope.ts enforces it on every request.
 */
@Injectable()
export class ApiKeysService {
  constructor(
    private readonly keys: ApiKeysRepository,
    private readonly operators: OperatorsRepository,
  ) {}

  async list(operatorId?: string): Promise<ApiKeyView[]> {
    return (await this.keys.list(operatorId)).map(view);
  }

  async create(body: z.infer<typeof createApiKeyBody>): Promise<z.infer<typeof createdApiKeyView>> {
    const owner = await this.operators.byId(body.operatorId);
    if (!owner) throw notFound('operator', body.operatorId);
    if (!roleAllows(owner.role, body.role)) {
      throw unprocessable(
        'role_above_owner',
        `the owner is ${owner.role}; a key cannot carry more`,
        'body.role',
      );
    }
    const groupIds = body.groups ? [...new Set(body.groups)] : undefined;
    const unknown = groupIds ? await this.keys.unknownGroups(groupIds) : [];
    if (unknown.length > 0) {
      throw unprocessable('unknown_group', `no device group ${unknown.join(', ')}`, 'body.groups');
    }
    const key = generateApiKey();
    const created = await this.keys.create({
      operatorId: owner.id,
      name: body.name,
      role: body.role,
      prefix: key.prefix,
      secretHash: key.secretHash,
      ...(groupIds ? { groupIds } : {}),
    });
    return { ...view(created), key: key.plaintext };
  }

  async revoke(id: string): Promise<ApiKeyView> {
    const revoked = await this.keys.revoke(id);
    if (!revoked) throw notFound('API key', id);
    return view(revoked);
  }
}

function view(k: ApiKeyRecord): ApiKeyView {
  return {
    id: k.id,
    operatorId: k.operatorId,
    name: k.name,
    prefix: k.prefix,
    role: k.role,
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    revokedAt: k.revokedAt?.toISOString() ?? null,
    groups: k.groups,
  };
}
