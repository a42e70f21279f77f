export {
  DeviceCatalogRepository,
  type CurrentCatalogTool,
  type CurrentCatalogVersion,
} from './device-catalog.repository';
