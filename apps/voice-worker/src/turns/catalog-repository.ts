import type { CurrentCatalogTool } from '@fleet/db';

/** A tool of the device's current catalog as the AI catalog reads it (from @fleet/db's DeviceCatalogRepository). */
export type CatalogToolRow = Pick<
  CurrentCatalogTool,
  'name' | 'description' | 'inputSchema' | 'annotations' | 'userOnly' | 'sensitive'
>;
