import { Controller, Get, HttpCode, Patch, Post } from '@nestjs/common';
import type { z } from 'zod';
import { Audited } from '../audit/audited';
import { CurrentActor, type Actor } from '../http/actor';
import { uuidParams } from '../http/common-schemas';
import { Doc, Roles } from '../http/route-metadata';
import { ValidBody, ValidParams } from '../http/validation';
import { createOperatorBody, operatorView, updateOperatorBody, type OperatorView } from './operators.schemas';
import { OperatorsService } from './operators.service';

@Controller('operators')
export class OperatorsController {
  constructor(private readonly operators: OperatorsService) {}

  @Get()
  @Roles('admin')
  @Doc({
    summary: 'List operators (people with accounts)',
    response: { status: 200, schema: operatorView.array() },
  })
  list(): Promise<OperatorView[]> {
    return this.operators.list();
  }

  @Get(':id')
  @Roles('admin')
  @Doc({ summary: 'One operator', response: { status: 200, schema: operatorView } })
  get(@ValidParams(uuidParams) p: z.infer<typeof uuidParams>): Promise<OperatorView> {
    return this.operators.get(p.id);
  }

  @Post()
  @HttpCode(201)
  @Roles('admin')
  @Audited('operator.create', 'operator')
  @Doc({ summary: 'Create an operator account', response: { status: 201, schema: operatorView } })
  create(@ValidBody(createOperatorBody) body: z.infer<typeof createOperatorBody>): Promise<OperatorView> {
    return this.operators.create(body);
  }

  @Patch(':id')
  @Roles('admin')
  @Audited('operator.update', 'operator')
  @Doc({
    summary: 'Rename, change role, reset password, disable or enable',
    response: { status: 200, schema: operatorView },
  })
  update(
    @CurrentActor() actor: Actor,
    @ValidParams(uuidParams) p: z.infer<typeof uuidParams>,
    @ValidBody(updateOperatorBody) body: z.infer<typeof updateOperatorBody>,
  ): Promise<OperatorView> {
    return this.operators.update(actor, p.id, body);
  }
}
