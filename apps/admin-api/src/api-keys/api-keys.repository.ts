import { Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { PrismaService } from '../infra/prisma.service';

export interface ApiKeyRecord {
  id: string;
  operatorId: string;
  name: string;
  prefix: string;
  role: Role;
  createdAt: Date;
  lastUsedAt: Date | null;
  revokedAt: Date | null;
}

const COLUMNS = {
  id: true,
  operatorId: true,
  name: true,
  prefix: true,
  role: true,
  createdAt: true,
  lastUsedAt: true,
  revokedAt: true,
} as const;

@Injectable()
export class ApiKeysRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(operatorId?: string): Promise<ApiKeyRecord[]> {
    return this.prisma.client.apiKey.findMany({
      where: operatorId ? { operatorId } : {},
      select: COLUMNS,
      orderBy: { createdAt: 'asc' },
    });
  }

  create(k: {
    operatorId: string;
    name: string;
    role: Role;
    prefix: string;
    secretHash: string;
  }): Promise<ApiKeyRecord> {
    return this.prisma.client.apiKey.create({ data: k, select: COLUMNS });
  }

  /** Revoking twice keeps the first revocation's time. */
  async revoke(id: string): Promise<ApiKeyRecord | null> {
    await this.prisma.client.apiKey.updateMany({
      where: { id, revokedAt: null },
      data: { revokedAt: new Date() },
    });
    return this.prisma.client.apiKey.findUnique({ where: { id }, select: COLUMNS });
  }
}
