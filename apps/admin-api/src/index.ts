// The admin API as a library, for the cross-service tests in tools/e2e (no other app may import it).
export { loadAdminApiConfig, type AdminApiConfig } from './config';
export { startAdminApi, type AdminApiHandle } from './admin-api-app';
