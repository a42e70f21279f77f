export {
  CATALOG_VERSION_COLUMNS,
  DeviceCatalogRepository,
  type CurrentCatalogTool,
  type CurrentCatalogVersion,
} from './device-catalog.repository';
export { gateFactsOf, type GateFacts } from './gate-facts.repository';
