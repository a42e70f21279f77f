export { bootstrapAdmin, type BootstrappedAdmin } from './bootstrap-admin';
