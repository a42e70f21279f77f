import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DEPLOY } from './deploy-files';

export const ALERTS_FILE = join(DEPLOY, 'prometheus/alerts.yaml');
export const DASHBOARD_FILE = join(DEPLOY, 'grafana/fleet-dashboard.json');

export interface AlertRule {
  alert: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export function alertRules(): AlertRule[] {
  const doc = parse(readFileSync(ALERTS_FILE, 'utf8')) as { groups: { rules: AlertRule[] }[] };
  return doc.groups.flatMap((g) => g.rules);
}

export function dashboardExpressions(): string[] {
  const doc = JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as {
    panels: { targets?: { expr: string }[] }[];
  };
  return doc.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
}

// PromQL's own words: functions, aggregations, keywords; and the series Prometheus makes itself (`up`).
const PROMQL_WORDS = new Set([
  ...[
    'sum',
    'min',
    'max',
    'avg',
    'count',
    'by',
    'without',
    'and',
    'or',
    'unless',
    'offset',
    'on',
    'ignoring',
  ],
  ...[
    'rate',
    'irate',
    'increase',
    'changes',
    'histogram_quantile',
    'time',
    'abs',
    'bool',
    'le',
    'group_left',
  ],
  ...['group_right', 'topk', 'bottomk', 'delta', 'deriv', 'clamp_min', 'clamp_max', 'absent', 'vector'],
]);
const BUILT_IN_SERIES = new Set(['up']);
const HISTOGRAM_SUFFIX = /_(bucket|sum|count)$/;

/**
 * Pure: the metric names an expression reads (label names inside braces and `by (...)` lists, strings and
 * durations left out), each reduced to the family a service declares (`x_bucket` → `x`).
 */
export function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  const names = new Set<string>();
  for (const [word] of bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)) {
    if (PROMQL_WORDS.has(word) || BUILT_IN_SERIES.has(word) || /^\d/.test(word)) continue;
    if (!word.includes('_')) continue; // every platform metric is prefixed (broker_, orchestrator_, ...)
    names.add(word.replace(HISTOGRAM_SUFFIX, ''));
  }
  return [...names];
}

/** Every metric the alert rules and the dashboard read. */
export function metricsUsed(): string[] {
  const exprs = [...alertRules().map((r) => r.expr), ...dashboardExpressions()];
  return [...new Set(exprs.flatMap(metricNames))].sort();
}

/** Pure: the metric families a /metrics page declares (`# TYPE name kind`). */
export function declaredMetrics(exposition: string): string[] {
  return [...exposition.matchAll(/^# TYPE ([a-zA-Z_:][a-zA-Z0-9_:]*) /gm)].map((m) => m[1]!);
}
