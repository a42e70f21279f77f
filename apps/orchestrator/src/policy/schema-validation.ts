import { createHash } from 'node:crypto';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { LRUCache } from 'lru-cache';
import { canonicalJson } from '@fleet/domain';

// strict: false: devices declare what they like (unknown keywords, `description` beside `$ref`); what Ajv cannot
// read is the device's problem, not a reason to refuse every call of the tool. Defaults are never filled in: the
// arguments sent are the ones asked for.
const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: false, coerceTypes: false });

/** By schema object (a catalog's tools are held once per catalog version), then by content across devices. */
const bySchemaObject = new WeakMap<object, Compiled>();
const byContent = new LRUCache<string, Compiled>({ max: 2_000 });

type Compiled = { validate: ValidateFunction } | { problem: string };

/**
 * What the device's whole inputSchema says about the arguments (DESIGN §4): enum, const, pattern, lengths,
 * nested objects, oneOf and the rest, each as a sentence naming the field. The firmware's own quirks are checked
 * before this (argument-validation.ts); this adds what the schema declares beyond them.
 */
export function schemaErrors(inputSchema: Record<string, unknown>, args: unknown): string[] {
  const compiled = compiledOf(inputSchema);
  if ('problem' in compiled) return [];
  if (compiled.validate(args)) return [];
  return (compiled.validate.errors ?? []).map(sentence);
}

/** Why the device's schema cannot be used to check arguments, or undefined when it can. */
export function schemaProblem(inputSchema: Record<string, unknown>): string | undefined {
  const compiled = compiledOf(inputSchema);
  return 'problem' in compiled ? compiled.problem : undefined;
}

function compiledOf(schema: Record<string, unknown>): Compiled {
  const known = bySchemaObject.get(schema);
  if (known) return known;
  const key = createHash('sha256').update(canonicalJson(schema)).digest('hex');
  let compiled = byContent.get(key);
  if (!compiled) {
    try {
      compiled = { validate: ajv.compile(schema) };
    } catch (err) {
      compiled = { problem: `the device's inputSchema does not compile: ${(err as Error).message}` };
    }
    byContent.set(key, compiled);
  }
  bySchemaObject.set(schema, compiled);
  return compiled;
}

function sentence(e: ErrorObject): string {
  const at = e.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .join('.');
  const field = (name: string) => `argument "${at ? `${at}.${name}` : name}"`;
  switch (e.keyword) {
    case 'required':
      return `${field(String(e.params['missingProperty']))} is missing`;
    case 'additionalProperties':
      return `${field(String(e.params['additionalProperty']))} is not declared by the tool`;
    case 'enum':
      return `argument "${at}" must be one of ${(e.params['allowedValues'] as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `argument "${at}" must be ${JSON.stringify(e.params['allowedValue'])}`;
    default:
      return `argument "${at || '(arguments)'}" ${e.message ?? `fails ${e.keyword}`}`;
  }
}
