import { Injectable } from '@nestjs/common';
import type { Prisma } from '@fleet/db';
import { PrismaService } from '../infra/prisma.service';

export interface AuditRow {
  operatorId: string | null;
  apiKeyId: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  details: Prisma.InputJsonValue | null;
  ip: string | null;
  userAgent: string | null;
}

@Injectable()
export class AuditRepository {
  constructor(private readonly prisma: PrismaService) {}

  async insert(row: AuditRow): Promise<void> {
    await this.prisma.client.auditEvent.create({
      data: { ...row, details: row.details ?? undefined },
    });
  }
}
