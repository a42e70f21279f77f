import { Injectable } from '@nestjs/common';
import { hashPassword } from '@fleet/auth';
import type { z } from 'zod';
import type { Actor } from '../http/actor';
import { ApiError, notFound } from '../http/api-error';
import { OperatorsRepository, type OperatorRecord } from './operators.repository';
import type { createOperatorBody, OperatorView, updateOperatorBody } from './operators.schemas';

@Injectable()
export class OperatorsService {
  constructor(private readonly operators: OperatorsRepository) {}

  async list(): Promise<OperatorView[]> {
    return (await this.operators.list()).map(view);
  }

  async get(id: string): Promise<OperatorView> {
    const operator = await this.operators.byId(id);
    if (!operator) throw notFound('operator', id);
    return view(operator);
  }

  async create(body: z.infer<typeof createOperatorBody>): Promise<OperatorView> {
    const created = await this.operators.create({
      email: body.email,
      name: body.name,
      role: body.role,
      ...(body.password ? { passwordHash: await hashPassword(body.password) } : {}),
    });
    return view(created);
  }

  async update(actor: Actor, id: string, body: z.infer<typeof updateOperatorBody>): Promise<OperatorView> {
    if (!(await this.operators.exists(id))) throw notFound('operator', id);
    if (id === actor.operatorId && body.disabled) {
      throw new ApiError(409, 'cannot_disable_self', 'you cannot disable your own account');
    }
    const updated = await this.operators.update(
      id,
      {
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.role !== undefined ? { role: body.role } : {}),
        ...(body.disabled !== undefined ? { disabled: body.disabled } : {}),
        ...(body.password !== undefined ? { passwordHash: await hashPassword(body.password) } : {}),
      },
      // An admin who resets their own password keeps the session they did it in; everyone else's sessions end.
      id === actor.operatorId ? actor.sessionId : undefined,
    );
    return view(updated);
  }
}

function view(o: OperatorRecord): OperatorView {
  return {
    id: o.id,
    email: o.email,
    name: o.name,
    role: o.role,
    hasPassword: o.passwordHash !== null,
    oidcLinked: o.oidcSubject !== null,
    disabledAt: o.disabledAt?.toISOString() ?? null,
    createdAt: o.createdAt.toISOString(),
  };
}
