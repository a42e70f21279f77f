// What other projects may reuse of the deploy check: the metric names deploy/'s alert rules and dashboard use,
// so a running platform can be checked against them.
export { declaredMetrics, metricsUsed } from './observability-files';
