// The orchestrator as a library, for the cross-service tests in tools/e2e (no other app may import it).
export { loadOrchestratorConfig, type OrchestratorConfig } from './config';
export { startOrchestrator, type OrchestratorHandle } from './orchestrator-app';
