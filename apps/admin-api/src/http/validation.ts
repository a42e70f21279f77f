import { Body, Param, Query, type PipeTransform } from '@nestjs/common';
import type { z } from 'zod';
import { ApiError } from './api-error';
import { recordRouteSchema, type SchemaLocation } from './route-metadata';
import { describeIssues, fieldIssues } from './zod-issues';

/** Parses one part of a request with its zod schema; a failure is a 400 that names each bad field. */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.output<S>> {
  constructor(
    private readonly schema: S,
    private readonly location: SchemaLocation,
  ) {}

  transform(value: unknown): z.output<S> {
    const parsed = this.schema.safeParse(value ?? (this.location === 'body' ? undefined : {}));
    if (parsed.success) return parsed.data;
    const issues = fieldIssues(parsed.error, this.location);
    throw new ApiError(400, 'validation_failed', describeIssues(issues), issues);
  }
}

// One declaration per request part both validates it and describes it in the OpenAPI document, so the
// document cannot drift from what the handler accepts.

export function ValidBody(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    recordRouteSchema(target, key, 'body', schema);
    Body(new ZodPipe(schema, 'body'))(target, key, index);
  };
}

export function ValidQuery(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    recordRouteSchema(target, key, 'query', schema);
    Query(new ZodPipe(schema, 'query'))(target, key, index);
  };
}

export function ValidParams(schema: z.ZodType): ParameterDecorator {
  return (target, key, index) => {
    recordRouteSchema(target, key, 'params', schema);
    Param(new ZodPipe(schema, 'params'))(target, key, index);
  };
}
