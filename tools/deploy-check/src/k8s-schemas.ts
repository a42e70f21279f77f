import { createRequire } from 'node:module';
import { join } from 'node:path';
import ts from 'typescript';
import { ROOT, type K8sDocument } from './deploy-files';

// Kubernetes object schemas vendored from the npm registry: kubernetes-models (tommy351/kubernetes-models-ts) ships,
// for every kind of the Kubernetes OpenAPI specification, a validator that Ajv compiled from that kind's JSON schema
// (Ajv's standalone code, run with @kubernetes-models/validate's formats) and a TypeScript interface generated from
// the same specification. The validator checks types, required fields, enums and formats; it lets unknown fields
// through, as the API server's default does. The interfaces catch those (a misspelt `readinesProbe` is silently
// dropped by a lenient apply): kubectl --validate=strict, offline.

export const SCHEMA_PACKAGE = 'kubernetes-models';
const load = createRequire(join(ROOT, 'package.json'));

export function schemaPackageVersion(): string {
  return (load(`${SCHEMA_PACKAGE}/package.json`) as { version: string }).version;
}

export interface SchemaProblem {
  where: string;
  message: string;
}

interface ModelClass {
  new (data: unknown): { validate(): void };
}

interface AjvError {
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

/** `apps/v1` + `Deployment` → the model module of that kind (core kinds live under `v1/`). */
function modelModule(apiVersion: string, kind: string): string {
  return `${SCHEMA_PACKAGE}/${apiVersion}/${kind}`;
}

/** Ajv's verdict on one object, against its kind's schema. Throws for a kind the package does not know. */
export function validateAgainstSchema(doc: K8sDocument): SchemaProblem[] {
  const { apiVersion, kind } = doc.object;
  const moduleExports = load(modelModule(apiVersion, kind)) as Record<string, ModelClass | undefined>;
  const Model = moduleExports[kind];
  if (!Model) throw new Error(`${SCHEMA_PACKAGE} has no ${apiVersion} ${kind}`);
  try {
    new Model(doc.object).validate();
    return [];
  } catch (err) {
    const errors = (err as { errors?: AjvError[] }).errors;
    if (!errors) throw err;
    return errors.map((e) => ({
      where: `${doc.file}#${doc.index} ${kind}/${doc.object.metadata?.name}${e.instancePath}`,
      message: `${e.message ?? 'invalid'}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    }));
  }
}

/**
 * Unknown fields anywhere in the documents: each object becomes a literal typed with its kind's interface, and the
 * TypeScript compiler reports excess properties (and any type the schema also checks). One program for all documents.
 */
export function findUnknownFields(docs: K8sDocument[]): SchemaProblem[] {
  // A file that exists only in this program, at the root, so that the package resolves as from any source file.
  const file = join(ROOT, '__deploy_check_manifests__.ts');
  const source = docs
    .map((doc, i) => {
      const { apiVersion, kind } = doc.object;
      return `// ${doc.file}#${doc.index}\nexport const doc${i}: import(${JSON.stringify(modelModule(apiVersion, kind))}).I${kind} = ${JSON.stringify(doc.object, null, 1)};\n`;
    })
    .join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
  };
  const host = ts.createCompilerHost(options);
  const readSource = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : readSource(name, language, ...rest);
  const fileExists = host.fileExists.bind(host);
  host.fileExists = (name) => name === file || fileExists(name);
  const program = ts.createProgram([file], options, host);
  const lines = source.split('\n');
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
    if (d.file?.fileName !== file || d.start === undefined)
      return { where: d.file?.fileName ?? '?', message };
    const line = d.file.getLineAndCharacterOfPosition(d.start).line;
    // The comment line above each literal names its document.
    const header = lines
      .slice(0, line + 1)
      .reverse()
      .find((l) => l.startsWith('// '));
    return { where: `${header?.slice(3) ?? '?'} (line ${line + 1} of the typed copy)`, message };
  });
}
