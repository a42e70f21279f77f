import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  COMMANDS,
  DEPLOY,
  IMAGE_NAME,
  K8S,
  k8sManifestFiles,
  readK8sDocuments,
  type Component,
  type K8sDocument,
} from './deploy-files';
import { findUnknownFields, schemaPackageVersion, validateAgainstSchema } from './k8s-schemas';

// Container and pod fields the checks below read (the schemas have checked their shapes already).
interface Probe {
  httpGet?: { path: string; port: string | number };
}
interface Container {
  name: string;
  image: string;
  command?: string[];
  ports?: { name?: string; containerPort: number; hostPort?: number; protocol?: string }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: { fieldRef?: { fieldPath: string }; secretKeyRef?: { name: string; key: string } };
  }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  startupProbe?: Probe;
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
  securityContext?: { readOnlyRootFilesystem?: boolean; allowPrivilegeEscalation?: boolean };
}
interface PodTemplate {
  metadata: { labels: Record<string, string> };
  spec: {
    containers: Container[];
    initContainers?: Container[];
    securityContext?: { runAsNonRoot?: boolean };
    affinity?: {
      podAntiAffinity?: { requiredDuringSchedulingIgnoredDuringExecution?: { topologyKey: string }[] };
    };
  };
}
interface Workload {
  spec: { selector: { matchLabels: Record<string, string> }; template: PodTemplate };
}

const docs = readK8sDocuments();
const of = (kind: string) => docs.filter((d) => d.object.kind === kind);
const named = (kind: string, name: string) => {
  const doc = docs.find((d) => d.object.kind === kind && d.object.metadata.name === name);
  if (!doc) throw new Error(`no ${kind} ${name}`);
  return doc.object;
};
const workloads = () =>
  docs.filter((d) => ['Deployment', 'StatefulSet', 'Job'].includes(d.object.kind)) as (K8sDocument & {
    object: K8sDocument['object'] & Workload;
  })[];
const component = (labels: Record<string, string> | undefined) =>
  labels?.['app.kubernetes.io/component'] as Component | undefined;
const matches = (selector: Record<string, string>, labels: Record<string, string>) =>
  Object.entries(selector).every(([k, v]) => labels[k] === v);

describe(`Kubernetes manifests (deploy/k8s) against kubernetes-models ${schemaPackageVersion()}`, () => {
  it('validates every document of every manifest against the schema of its kind, with Ajv', () => {
    expect(k8sManifestFiles().length).toBeGreaterThanOrEqual(7);
    expect(docs.length).toBeGreaterThanOrEqual(20);
    expect(docs.flatMap(validateAgainstSchema)).toEqual([]);
  });

  it('has no field its kind does not define (kubectl --validate=strict)', () => {
    expect(findUnknownFields(docs)).toEqual([]);
  });

  it('would catch a wrong type, a missing required field and a misspelt field', () => {
    const broken = structuredClone(named('Deployment', 'orchestrator')) as unknown as {
      spec: { replicas: unknown; selector?: unknown; template: PodTemplate };
    };
    broken.spec.replicas = 'two';
    delete broken.spec.selector;
    const container = broken.spec.template.spec.containers[0]! as Container & { readinesProbe?: unknown };
    container.readinesProbe = container.readinessProbe;
    const doc = { file: 'broken.yaml', index: 0, object: broken as unknown as K8sDocument['object'] };
    const problems = validateAgainstSchema(doc).map((p) => `${p.where} ${p.message}`);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/\/spec\/replicas must be integer/),
        expect.stringMatching(/\/spec must have required property 'selector'|missingProperty.*selector/),
      ]),
    );
    expect(findUnknownFields([doc]).map((p) => p.message)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/'"readinesProbe"' does not exist in type 'IContainer'/),
        expect.stringMatching(/Type 'string' is not assignable to type 'number'/),
      ]),
    );
  });

  it('runs each component with its command from the one image', () => {
    const seen = new Set<string>();
    for (const { object } of workloads()) {
      for (const c of object.spec.template.spec.containers) {
        expect(c.image.startsWith(`${IMAGE_NAME}:`)).toBe(true);
        const which = component(object.spec.template.metadata.labels)!;
        expect([which, c.command]).toEqual([which, COMMANDS[which]]);
        seen.add(which);
      }
    }
    expect([...seen].sort()).toEqual(['admin-api', 'broker', 'migrate', 'orchestrator', 'voice-worker']);
  });

  it('gives each stateless service a Deployment, a Service, a HorizontalPodAutoscaler and a PodDisruptionBudget', () => {
    for (const name of ['orchestrator', 'voice-worker', 'admin-api']) {
      const deployment = named('Deployment', name) as unknown as Workload;
      const hpa = named('HorizontalPodAutoscaler', name) as unknown as {
        spec: { scaleTargetRef: { kind: string; name: string }; minReplicas: number; maxReplicas: number };
      };
      expect(hpa.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name });
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      const pdb = named('PodDisruptionBudget', name) as unknown as {
        spec: { selector: { matchLabels: Record<string, string> } };
      };
      expect(matches(pdb.spec.selector.matchLabels, deployment.spec.template.metadata.labels)).toBe(true);
      named('Service', name);
    }
    // 16 call partitions: more orchestrators than that would idle
    expect(
      (named('HorizontalPodAutoscaler', 'orchestrator').spec as { maxReplicas: number }).maxReplicas,
    ).toBeLessThanOrEqual(16);
    const broker = named('StatefulSet', 'broker') as unknown as Workload;
    const brokerPdb = named('PodDisruptionBudget', 'broker') as unknown as {
      spec: { selector: { matchLabels: Record<string, string> } };
    };
    expect(matches(brokerPdb.spec.selector.matchLabels, broker.spec.template.metadata.labels)).toBe(true);
    expect(
      of('HorizontalPodAutoscaler')
        .map((d) => d.object.metadata.name)
        .sort(),
    ).toEqual(['admin-api', 'orchestrator', 'voice-worker']);
  });

  it('probes /healthz on a declared port and sets requests and a memory limit on every long-running container', () => {
    const probed = new Set<string>();
    for (const { object } of workloads().filter((w) => w.object.kind !== 'Job')) {
      for (const c of object.spec.template.spec.containers) {
        probed.add(component(object.spec.template.metadata.labels)!);
        const ports = new Set<string | number>(
          (c.ports ?? []).flatMap((p) => [p.name ?? '', p.containerPort]),
        );
        for (const probe of [c.readinessProbe, c.livenessProbe, c.startupProbe]) {
          expect([c.name, probe?.httpGet?.path]).toEqual([c.name, '/healthz']);
          expect([c.name, ports.has(probe!.httpGet!.port)]).toEqual([c.name, true]);
        }
        expect(c.resources?.requests).toEqual(
          expect.objectContaining({ cpu: expect.any(String), memory: expect.any(String) }),
        );
        expect(c.resources?.limits).toEqual(expect.objectContaining({ memory: expect.any(String) }));
      }
    }
    // Liveness restarts a service that hangs or dies, readiness takes it out of its Service meanwhile: all four.
    expect([...probed].sort()).toEqual(['admin-api', 'broker', 'orchestrator', 'voice-worker']);
  });

  it('runs every pod unprivileged, on a read-only root', () => {
    for (const { object } of workloads()) {
      expect([object.metadata.name, object.spec.template.spec.securityContext?.runAsNonRoot]).toEqual([
        object.metadata.name,
        true,
      ]);
      for (const c of [
        ...object.spec.template.spec.containers,
        ...(object.spec.template.spec.initContainers ?? []),
      ]) {
        expect([c.name, c.securityContext]).toEqual([
          c.name,
          expect.objectContaining({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false }),
        ]);
      }
    }
  });

  it("lets each broker replica advertise its own UDP address: the node's port, the node's address, one broker per node", () => {
    const broker = (named('StatefulSet', 'broker') as unknown as Workload).spec.template.spec;
    const container = broker.containers[0]!;
    const audio = container.ports!.find((p) => p.protocol === 'UDP')!;
    const env = new Map(container.env!.map((e) => [e.name, e]));
    expect(audio.hostPort).toBe(audio.containerPort);
    expect(env.get('UDP_PORT')?.value).toBe(String(audio.containerPort));
    expect(env.get('PUBLIC_UDP_PORT')?.value).toBe(String(audio.hostPort));
    expect(env.get('PUBLIC_UDP_HOST')?.value).toBe('$(NODE_IP)');
    expect(env.get('NODE_IP')?.valueFrom?.fieldRef?.fieldPath).toBe('status.hostIP');
    // $(VAR) expands only variables defined earlier in the list
    const names = container.env!.map((e) => e.name);
    expect(names.indexOf('NODE_IP')).toBeLessThan(names.indexOf('PUBLIC_UDP_HOST'));
    expect(names.indexOf('POD_NAME')).toBeLessThan(names.indexOf('BROKER_ID'));
    expect(broker.affinity?.podAntiAffinity?.requiredDuringSchedulingIgnoredDuringExecution).toEqual([
      expect.objectContaining({ topologyKey: 'kubernetes.io/hostname' }),
    ]);
    // and no Service spreads UDP over the replicas
    for (const { object } of of('Service')) {
      const ports = (object.spec as { ports: { protocol?: string }[] }).ports;
      expect([object.metadata.name, ports.some((p) => p.protocol === 'UDP')]).toEqual([
        object.metadata.name,
        false,
      ]);
    }
  });

  it('selects what exists: Service selectors match pods, port names match container ports', () => {
    const pods = workloads().map((w) => w.object.spec.template);
    for (const { object } of of('Service')) {
      const spec = object.spec as {
        selector: Record<string, string>;
        ports: { targetPort: string | number }[];
      };
      const targets = pods.filter((p) => matches(spec.selector, p.metadata.labels));
      expect([object.metadata.name, targets.length]).toEqual([object.metadata.name, 1]);
      const names = new Set(targets[0]!.spec.containers.flatMap((c) => (c.ports ?? []).map((p) => p.name)));
      for (const port of spec.ports)
        expect([object.metadata.name, names.has(port.targetPort as string)]).toEqual([
          object.metadata.name,
          true,
        ]);
    }
    for (const { object } of workloads()) {
      expect(matches(object.spec.selector?.matchLabels ?? {}, object.spec.template.metadata.labels)).toBe(
        true,
      );
    }
  });

  it('reads only Secret keys the example defines, and the ConfigMaps the manifests create', () => {
    const example = parse(readFileSync(join(K8S, 'secret.example.yaml'), 'utf8')) as {
      metadata: { name: string };
      stringData: Record<string, string>;
    };
    const configMaps = new Set(of('ConfigMap').map((d) => d.object.metadata.name));
    for (const { object } of workloads()) {
      const spec = object.spec.template.spec as PodTemplate['spec'] & {
        volumes?: { configMap?: { name: string } }[];
      };
      for (const c of [...spec.containers, ...(spec.initContainers ?? [])]) {
        for (const e of c.env ?? []) {
          const ref = e.valueFrom?.secretKeyRef;
          if (ref)
            expect([c.name, ref.name, ref.key in example.stringData]).toEqual([
              c.name,
              example.metadata.name,
              true,
            ]);
        }
        for (const from of c.envFrom ?? []) {
          expect(from.secretRef).toBeUndefined(); // each secret is given by name to the container that needs it
          if (from.configMapRef) expect(configMaps.has(from.configMapRef.name)).toBe(true);
        }
      }
      for (const v of spec.volumes ?? [])
        if (v.configMap) expect(configMaps.has(v.configMap.name)).toBe(true);
    }
  });

  it('runs the same role SQL as deploy/sql/app-role.sql', () => {
    const sql = (text: string) =>
      text
        .split('\n')
        .filter((l) => l.trim() !== '' && !l.startsWith('--'))
        .join('\n')
        .trim();
    const configMap = named('ConfigMap', 'fleet-db-roles') as unknown as { data: Record<string, string> };
    expect(sql(configMap.data['app-role.sql']!)).toBe(
      sql(readFileSync(join(DEPLOY, 'sql/app-role.sql'), 'utf8')),
    );
  });

  it('lists every manifest but the Secret example in kustomization.yaml, and names the image it runs', () => {
    const kustomization = parse(readFileSync(join(K8S, 'kustomization.yaml'), 'utf8')) as {
      resources: string[];
      images: { name: string }[];
    };
    expect([...kustomization.resources].sort()).toEqual(
      k8sManifestFiles().filter((f) => f !== 'secret.example.yaml'),
    );
    expect(kustomization.images.map((i) => i.name)).toEqual([IMAGE_NAME]);
  });
});
