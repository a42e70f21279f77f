import { Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { PrismaService } from '../infra/prisma.service';

export interface KeyOwner {
  keyId: string;
  secretHash: string;
  keyRole: Role;
  revoked: boolean;
  operator: { id: string; email: string; name: string; role: Role; disabled: boolean };
}

export interface SessionOwner {
  sessionId: string;
  expiresAt: Date;
  operator: { id: string; email: string; name: string; role: Role; disabled: boolean };
}

/** Looks up API keys and sessions by what a request presents (a key prefix, a token hash). */
@Injectable()
export class CredentialsRepository {
  constructor(private readonly prisma: PrismaService) {}

  async keyByPrefix(prefix: string): Promise<KeyOwner | undefined> {
    const key = await this.prisma.client.apiKey.findUnique({
      where: { prefix },
      include: { operator: true },
    });
    if (!key) return undefined;
    return {
      keyId: key.id,
      secretHash: key.secretHash,
      keyRole: key.role,
      revoked: key.revokedAt !== null,
      operator: ownerOf(key.operator),
    };
  }

  /** Last use is recorded at most once a minute per key: a busy client must not cost a write per request. */
  async touchKey(keyId: string): Promise<void> {
    await this.prisma.client.apiKey.updateMany({
      where: { id: keyId, OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(Date.now() - 60_000) } }] },
      data: { lastUsedAt: new Date() },
    });
  }

  async liveSession(tokenHash: string): Promise<SessionOwner | undefined> {
    const session = await this.prisma.client.session.findFirst({
      where: { tokenHash, revokedAt: null, expiresAt: { gt: new Date() } },
      include: { operator: true },
    });
    return session
      ? { sessionId: session.id, expiresAt: session.expiresAt, operator: ownerOf(session.operator) }
      : undefined;
  }

  async createSession(s: {
    operatorId: string;
    tokenHash: string;
    expiresAt: Date;
    ip?: string;
    userAgent?: string;
  }): Promise<string> {
    const session = await this.prisma.client.session.create({
      data: {
        operatorId: s.operatorId,
        tokenHash: s.tokenHash,
        expiresAt: s.expiresAt,
        ip: s.ip ?? null,
        userAgent: s.userAgent ?? null,
      },
    });
    return session.id;
  }

  async revokeSession(sessionId: string): Promise<void> {
    await this.prisma.client.session.updateMany({
      where: { id: sessionId, revokedAt: null },
      data: { revokedAt: new Date() },
    });
  }
}

function ownerOf(o: { id: string; email: string; name: string; role: Role; disabledAt: Date | null }) {
  return { id: o.id, email: o.email, name: o.name, role: o.role, disabled: o.disabledAt !== null };
}
