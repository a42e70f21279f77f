import { RequestMethod, type Type } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { z } from 'zod';
import { answerSchema, apiErrorSchema } from '@fleet/api-contract';
import { DOC_KEY, ROLE_KEY, routeSchemas, type RouteDoc } from '../http/route-metadata';

type JsonSchema = Record<string, unknown> & { properties?: Record<string, JsonSchema>; required?: string[] };

export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, unknown>;
}

/**
 * The OpenAPI document, read from the routes themselves: Nest's path and method metadata, the zod schemas
 * the validation decorators enforce, the role each route declares, and each route's answer schema from
 * @fleet/api-contract (the same one the answer validation checks in tests). A route that declares no role
 * stops the start, so the document and the guard can never disagree about who may call what.
 */
export function buildOpenApiDocument(controllers: Type[], prefix: string): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const controller of controllers) {
    const base = String(Reflect.getMetadata(PATH_METADATA, controller) ?? '');
    const proto = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(proto)) {
      const handler = proto[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      if (method === undefined) continue;
      const own = String(Reflect.getMetadata(PATH_METADATA, handler) ?? '');
      const path = openApiPath(prefix, base, own);
      const role = (Reflect.getMetadata(ROLE_KEY, handler) ?? Reflect.getMetadata(ROLE_KEY, controller)) as
        string | undefined;
      if (!role) throw new Error(`${controller.name}.${name} (${path}) declares no role with @Roles`);
      const doc = Reflect.getMetadata(DOC_KEY, handler) as RouteDoc | undefined;
      paths[path] ??= {};
      const verb = RequestMethod[method];
      const answer = answerSchema(verb, routePath(base, own));
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
        (verb === 'POST' ? 201 : 200);
      paths[path][verb.toLowerCase()] = operation(
        proto,
        name,
        role,
        { doc, answer, status },
        controller.name,
      );
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'voice-fleet admin API',
      version: '1',
      description:
        'Operators, the fleet, calls with their five evidence rows, approvals, campaigns, firmware, webhooks and ' +
        'audit reports. Authenticate with `Authorization: Bearer <API key or session token>` or the session cookie.',
    },
    paths,
    components: {
      schemas: { Error: jsonSchema(apiErrorSchema, 'output') },
      securitySchemes: {
        bearer: {
          type: 'http',
          scheme: 'bearer',
          description: 'an API key (fk_...) or a session token (fs_...)',
        },
        session: { type: 'apiKey', in: 'cookie', name: 'fleet_session' },
      },
    },
  };
}

interface RouteFacts {
  doc: RouteDoc | undefined;
  /** From the contract: `null` when the answer is not JSON, `undefined` when the contract lacks the route. */
  answer: z.ZodType | null | undefined;
  /** Its @HttpCode, or Nest's default. */
  status: number;
}

function operation(proto: object, name: string, role: string, facts: RouteFacts, tag: string) {
  const { doc } = facts;
  const schemas = routeSchemas(proto, name);
  const parameters = [...parametersOf(schemas.params, 'path'), ...parametersOf(schemas.query, 'query')];
  const schema = facts.answer === undefined ? doc?.response?.schema : (facts.answer ?? undefined);
  const success = { status: facts.status, ...doc?.response, schema };
  const content = (doc?.produces ?? (success.schema ? ['application/json'] : [])).map(
    (type): [string, object] => [
      type,
      type === 'application/json' && success.schema ? { schema: jsonSchema(success.schema, 'output') } : {},
    ],
  );
  return {
    operationId: `${tag.replace(/Controller$/, '')}.${name}`,
    tags: [tag.replace(/Controller$/, '')],
    summary: doc?.summary ?? name,
    description: `${doc?.description ? `${doc.description}\n\n` : ''}Role: **${role}**.`,
    'x-role': role,
    security: role === 'public' ? [] : [{ bearer: [] }, { session: [] }],
    ...(parameters.length > 0 ? { parameters } : {}),
    ...requestBody(schemas.body, doc),
    responses: {
      [String(success.status)]: {
        description: success.description ?? 'done',
        ...(content.length > 0 ? { content: Object.fromEntries(content) } : {}),
      },
      '4XX': {
        description: 'refused; the message names the field or the rule',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
      },
    },
  };
}

function requestBody(schema: z.ZodType | undefined, doc: RouteDoc | undefined) {
  if (doc?.rawBody) {
    return {
      requestBody: {
        required: true,
        description: doc.rawBody.description,
        content: { [doc.rawBody.contentType]: { schema: { type: 'string', format: 'binary' } } },
      },
    };
  }
  if (!schema) return {};
  return {
    requestBody: {
      required: !schema.safeParse(undefined).success,
      content: { 'application/json': { schema: jsonSchema(schema, 'input') } },
    },
  };
}

function parametersOf(schema: z.ZodType | undefined, where: 'path' | 'query') {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  return Object.entries(object.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    required: where === 'path' || (object.required ?? []).includes(name),
    schema: property,
    ...(typeof property['description'] === 'string' ? { description: property['description'] } : {}),
  }));
}

function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** The route as the contract names it: under the prefix, `:param` for parameters. */
function routePath(base: string, path: string): string {
  return ['', base, path]
    .join('/')
    .replace(/\/+/g, '/')
    .replace(/(.)\/$/, '$1');
}

function openApiPath(prefix: string, base: string, path: string): string {
  const joined = ['', prefix, base, path].join('/').replace(/\/+/g, '/').replace(/\/$/, '');
  return joined.replace(/:(\w+)/g, '{$1}');
}
