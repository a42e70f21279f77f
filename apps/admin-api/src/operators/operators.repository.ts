import { Injectable } from '@nestjs/common';
import type { Role } from '@fleet/auth';
import { ApiError } from '../http/api-error';
import { PrismaService } from '../infra/prisma.service';

export interface OperatorRecord {
  id: string;
  email: string;
  name: string;
  role: Role;
  passwordHash: string | null;
  oidcIssuer: string | null;
  oidcSubject: string | null;
  disabledAt: Date | null;
  createdAt: Date;
}

export interface NewOperator {
  email: string;
  name: string;
  role: Role;
  passwordHash?: string;
  oidc?: { issuer: string; subject: string };
}

/** Operators (people) and their sessions' fate when an account changes. */
@Injectable()
export class OperatorsRepository {
  constructor(private readonly prisma: PrismaService) {}

  byId(id: string): Promise<OperatorRecord | null> {
    return this.prisma.client.operator.findUnique({ where: { id } });
  }

  byEmail(email: string): Promise<OperatorRecord | null> {
    return this.prisma.client.operator.findUnique({ where: { email: email.toLowerCase() } });
  }

  byOidc(issuer: string, subject: string): Promise<OperatorRecord | null> {
    return this.prisma.client.operator.findUnique({
      where: { oidcIssuer_oidcSubject: { oidcIssuer: issuer, oidcSubject: subject } },
    });
  }

  list(): Promise<OperatorRecord[]> {
    return this.prisma.client.operator.findMany({ orderBy: { email: 'asc' } });
  }

  async create(o: NewOperator): Promise<OperatorRecord> {
    try {
      return await this.prisma.client.operator.create({
        data: {
          email: o.email.toLowerCase(),
          name: o.name,
          role: o.role,
          passwordHash: o.passwordHash ?? null,
          oidcIssuer: o.oidc?.issuer ?? null,
          oidcSubject: o.oidc?.subject ?? null,
        },
      });
    } catch (err) {
      if ((err as { code?: string }).code === 'P2002') {
        throw new ApiError(409, 'operator_exists', `an operator with email ${o.email} exists`);
      }
      throw err;
    }
  }

  async bindOidc(id: string, issuer: string, subject: string): Promise<void> {
    await this.prisma.client.operator.update({
      where: { id },
      data: { oidcIssuer: issuer, oidcSubject: subject },
    });
  }

  /**
   * Changes an account; disabling one ends its sessions, and so does a new password (a session begun with the old
   * password, perhaps by whoever learned it, must not outlive it), except `keepSessionId`: the session of a person
   * who changed their own password. Serialised on one lock and checked inside the transaction, so two admins
   * demoting each other at once cannot leave the install without an admin.
   */
  async update(
    id: string,
    change: { name?: string; role?: Role; passwordHash?: string; disabled?: boolean },
    keepSessionId?: string,
  ): Promise<OperatorRecord> {
    return this.prisma.client.$transaction(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(727073691)`;
      const updated = await tx.operator.update({
        where: { id },
        data: {
          ...(change.name !== undefined ? { name: change.name } : {}),
          ...(change.role !== undefined ? { role: change.role } : {}),
          ...(change.passwordHash !== undefined ? { passwordHash: change.passwordHash } : {}),
          ...(change.disabled !== undefined ? { disabledAt: change.disabled ? new Date() : null } : {}),
        },
      });
      const admins = await tx.operator.count({ where: { role: 'admin', disabledAt: null } });
      if (admins === 0) {
        throw new ApiError(409, 'last_admin', 'this would leave no enabled admin; promote someone first');
      }
      if (change.disabled || change.passwordHash !== undefined) {
        await tx.session.updateMany({
          where: {
            operatorId: id,
            revokedAt: null,
            ...(keepSessionId && !change.disabled ? { id: { not: keepSessionId } } : {}),
          },
          data: { revokedAt: new Date() },
        });
      }
      return updated;
    });
  }

  async exists(id: string): Promise<boolean> {
    return (await this.prisma.client.operator.count({ where: { id } })) > 0;
  }
}
