export { registerOpsRoutes, type OpsRoutesOptions } from './ops-routes';
export { runService, StopStack, type RunServiceOptions, type StopFunction } from './service-lifecycle';
export { listenHttp } from './listen';
export { registerDependencyGauge } from './dependency-gauge';
