import type { ExecutionContext } from '@nestjs/common';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import type { Reflector } from '@nestjs/core';
import type { FastifyRequest } from 'fastify';

/** The status a route answers on success: its @HttpCode, or Nest's default (201 for POST, else 200). */
export function routeStatus(context: ExecutionContext, reflector: Reflector): number {
  const declared = reflector.get<number | undefined>(HTTP_CODE_METADATA, context.getHandler());
  return declared ?? (context.switchToHttp().getRequest<FastifyRequest>().method === 'POST' ? 201 : 200);
}
