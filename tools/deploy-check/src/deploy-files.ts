import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAlias, parseAllDocuments, parseDocument, visit, type Document } from 'yaml';

/** The repository root (this file is tools/deploy-check/src/deploy-files.ts). */
export const ROOT = resolve(__dirname, '../../..');
export const DEPLOY = join(ROOT, 'deploy');
export const K8S = join(DEPLOY, 'k8s');
export const COMPOSE_FILE = join(DEPLOY, 'compose.yaml');
export const DOCKERFILE = join(DEPLOY, 'Dockerfile');

/** The image every manifest runs (kustomization.yaml sets the real registry and tag). */
export const IMAGE_NAME = 'registry.example.com/voice-fleet';
export const COMPOSE_IMAGE = /^voice-fleet:/;

/** What each component runs: the same command in the Dockerfile's notes, compose.yaml and the Kubernetes manifests. */
export const COMMANDS = {
  broker: ['node', 'dist/apps/broker/src/main.js'],
  orchestrator: ['node', 'dist/apps/orchestrator/src/main.js'],
  'voice-worker': ['node', 'dist/apps/voice-worker/src/main.js'],
  'admin-api': ['node', 'dist/apps/admin-api/src/main.js'],
  migrate: ['node', 'dist/tools/db/src/migrate-cli.js'],
  'create-admin': ['node', 'dist/tools/db/src/create-admin-cli.js'],
} as const;
export type Component = keyof typeof COMMANDS;
/** The long-running services (the others are one-shots). */
export const SERVICES = ['broker', 'orchestrator', 'voice-worker', 'admin-api'] as const;

export interface K8sDocument {
  file: string;
  index: number;
  object: K8sObject;
}

/** The fields the checks read; the schemas check the rest. */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

/** The Kubernetes manifests: every .yaml in deploy/k8s except kustomize's own file. */
export function k8sManifestFiles(): string[] {
  return readdirSync(K8S)
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .sort();
}

/**
 * Every document of a multi-document YAML file, refusing what kubectl or kustomize would read differently than a
 * person: parse errors, duplicate keys, anchors and aliases (kustomize does not keep them).
 */
export function readYamlDocuments(path: string): unknown[] {
  const text = readFileSync(path, 'utf8');
  return parseAllDocuments(text, { uniqueKeys: true }).map((doc, i) => {
    const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
    if (problems.length > 0) throw new Error(`${path} document ${i}: ${problems.join('; ')}`);
    if (hasAnchors(doc))
      throw new Error(`${path} document ${i}: YAML anchors or aliases (kustomize drops them)`);
    return doc.toJS() as unknown;
  });
}

function hasAnchors(doc: Document): boolean {
  let found = false;
  visit(doc, (_key, node) => {
    if (isAlias(node) || (node && typeof node === 'object' && 'anchor' in node && node.anchor)) {
      found = true;
      return visit.BREAK;
    }
    return undefined;
  });
  return found;
}

export function readK8sDocuments(): K8sDocument[] {
  return k8sManifestFiles().flatMap((file) =>
    readYamlDocuments(join(K8S, file)).map((object, index) => ({ file, index, object: object as K8sObject })),
  );
}

/** compose.yaml as Compose reads it: anchors and `<<` merge keys resolved. */
export function readCompose(): ComposeFile {
  const doc = parseDocument(readFileSync(COMPOSE_FILE, 'utf8'), { merge: true, uniqueKeys: true });
  const problems = [...doc.errors, ...doc.warnings].map((e) => e.message);
  if (problems.length > 0) throw new Error(`compose.yaml: ${problems.join('; ')}`);
  return doc.toJS({ maxAliasCount: 1000 }) as ComposeFile;
}

export interface ComposeService {
  image?: string;
  build?: unknown;
  command?: string[];
  environment?: Record<string, string>;
  env_file?: string[];
  ports?: string[];
  volumes?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  [field: string]: unknown;
}

export interface ComposeFile {
  name: string;
  services: Record<string, ComposeService>;
  volumes?: Record<string, unknown>;
  [field: string]: unknown;
}
