import { SetMetadata, type ExecutionContext } from '@nestjs/common';
import type { z } from 'zod';
import type { Role } from '@fleet/auth';

// Metadata a route carries besides Nest's own: who may call it, its schemas, and what the docs say.
export const ROLE_KEY = 'fleet:role';
export const SCHEMAS_KEY = 'fleet:schemas';
export const DOC_KEY = 'fleet:doc';

/** A route's handler, as Nest's execution context names it (what route metadata is read from). */
export type RouteHandler = ReturnType<ExecutionContext['getHandler']>;

export type SchemaLocation = 'body' | 'query' | 'params';
export type RouteSchemas = Partial<Record<SchemaLocation, z.ZodType>>;

/** The least role that may call the route (viewer < operator < admin), or `public` for sign-in routes. */
export const Roles = (role: Role | 'public') => SetMetadata(ROLE_KEY, role);

export interface RouteDoc {
  summary: string;
  description?: string;
  /** The success status and, where it helps a client, the body's schema. */
  response?: { status: number; description?: string; schema?: z.ZodType };
  /** A body that is not JSON (the firmware upload). */
  rawBody?: { contentType: string; description: string };
  /** A response that is not JSON (CSV, event stream). */
  produces?: string[];
}

export const Doc = (doc: RouteDoc) => SetMetadata(DOC_KEY, doc);

export function recordRouteSchema(
  target: object,
  key: string | symbol | undefined,
  location: SchemaLocation,
  schema: z.ZodType,
): void {
  if (key === undefined) throw new Error('validation decorators belong on route handlers');
  const existing = (Reflect.getMetadata(SCHEMAS_KEY, target, key) as RouteSchemas | undefined) ?? {};
  Reflect.defineMetadata(SCHEMAS_KEY, { ...existing, [location]: schema }, target, key);
}

export function routeSchemas(target: object, key: string): RouteSchemas {
  return (Reflect.getMetadata(SCHEMAS_KEY, target, key) as RouteSchemas | undefined) ?? {};
}
