import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { z } from 'zod';
import { DEPLOY, K8S } from './deploy-files';
import {
  ALERTS_FILE,
  alertRules,
  dashboardExpressions,
  declaredMetrics,
  metricNames,
} from './observability-files';

// The operator's kit in deploy/: alert rules with runbooks, the dashboard, the ServiceMonitor. That every metric
// they read is one the services really export is checked against a running platform in tools/chaos.

const promtool = spawnSync('promtool', ['--version'], { encoding: 'utf8' });

describe("the operator's kit", () => {
  it('gives every alert rule a severity, a summary and a runbook', () => {
    const rules = alertRules();
    expect(rules.length).toBeGreaterThanOrEqual(8);
    for (const rule of rules) {
      expect({ alert: rule.alert, severity: rule.labels?.['severity'] }).toEqual({
        alert: rule.alert,
        severity: expect.stringMatching(/^(page|ticket)$/),
      });
      expect(rule.annotations?.['summary']).toBeTruthy();
      expect(rule.annotations?.['runbook']?.length).toBeGreaterThan(40);
    }
  });

  it('alerts on what an operator must hear of: devices dropping or fought over, failures rising, backlog, leases, evidence, dependencies', () => {
    const used = new Set(alertRules().flatMap((r) => metricNames(r.expr)));
    for (const metric of [
      'broker_connected_devices',
      'orchestrator_calls_total',
      'orchestrator_queue_depth',
      'orchestrator_owned_partitions',
      'admin_api_evidence_chains_broken',
      'admin_api_devices_taken_over_often',
      'fleet_dependency_up',
    ])
      expect(used).toContain(metric);
  });

  it('reads metric names out of PromQL, leaving labels, functions and durations out', () => {
    expect(
      metricNames(
        'histogram_quantile(0.99, sum by (le) (rate(orchestrator_call_seconds_bucket{verdict=~"no_response"}[5m]))) and up == 0',
      ),
    ).toEqual(['orchestrator_call_seconds']);
    expect(declaredMetrics('# HELP x_total x\n# TYPE x_total counter\nx_total 1\n')).toEqual(['x_total']);
  });

  it('has a dashboard whose every panel queries Prometheus', () => {
    const exprs = dashboardExpressions();
    expect(exprs.length).toBeGreaterThan(10);
    expect(exprs.flatMap(metricNames).length).toBeGreaterThan(10);
  });

  (promtool.status === 0 ? it : it.skip)('passes promtool check rules', () => {
    const result = spawnSync('promtool', ['check', 'rules', ALERTS_FILE], { encoding: 'utf8' });
    expect(`${result.stdout}${result.stderr}`).toMatch(/SUCCESS/);
    expect(result.status).toBe(0);
  });
  if (promtool.status !== 0) {
    console.warn(
      'deploy-check: promtool is not installed here, so the alert rules were not run through it ' +
        '(apt-get install prometheus; .ci/run installs it)',
    );
  }

  it('scrapes, with its ServiceMonitor, exactly one Service of each component, on a port that Service names', () => {
    // A CRD: no vendored schema (kubernetes-models covers the built-in kinds). Checked instead: the fields
    // the Prometheus Operator reads, and that they select what they should.
    const serviceMonitor = z.strictObject({
      apiVersion: z.literal('monitoring.coreos.com/v1'),
      kind: z.literal('ServiceMonitor'),
      metadata: z.object({ name: z.string(), namespace: z.literal('voice-fleet') }).passthrough(),
      spec: z.strictObject({
        selector: z.strictObject({ matchLabels: z.record(z.string(), z.string()) }),
        namespaceSelector: z.strictObject({ matchNames: z.array(z.string()) }),
        endpoints: z.array(
          z.strictObject({
            port: z.string(),
            path: z.string(),
            interval: z.string().regex(/^\d+s$/),
            scrapeTimeout: z.string().regex(/^\d+s$/),
          }),
        ),
      }),
    });
    const monitor = serviceMonitor.parse(
      parse(readFileSync(join(K8S, 'monitoring/service-monitor.yaml'), 'utf8')),
    );
    const services = ['admin-api', 'broker', 'orchestrator', 'voice-worker'].flatMap((f) =>
      parseAllDocuments(readFileSync(join(K8S, `${f}.yaml`), 'utf8'))
        .map(
          (d) =>
            d.toJS() as {
              kind: string;
              metadata: { name: string; labels?: Record<string, string> };
              spec: { ports: { name: string }[] };
            },
        )
        .filter((o) => o.kind === 'Service'),
    );
    const selected = services.filter((s) =>
      Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => s.metadata.labels?.[k] === v),
    );
    expect(selected.map((s) => s.metadata.name).sort()).toEqual([
      'admin-api',
      'broker-pods',
      'orchestrator',
      'voice-worker',
    ]);
    for (const s of selected)
      expect(s.spec.ports.map((p) => p.name)).toContain(monitor.spec.endpoints[0]!.port);
    expect(readFileSync(join(DEPLOY, 'k8s/monitoring/kustomization.yaml'), 'utf8')).toContain(
      'service-monitor.yaml',
    );
  });
});
