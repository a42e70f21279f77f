import { DIALECTS, type Dialect, type DeviceFilters, type DeviceStatus } from '@fleet/api-contract';

const STATUSES: readonly DeviceStatus[] = ['active', 'awaiting_activation', 'revoked', 'decommissioned'];

/** Filters from the page's query string (`?online=false&board=...`), so a filtered list can be linked to. */
export function filtersFromSearch(search: string): DeviceFilters {
  const p = new URLSearchParams(search);
  const text = (name: string) => p.get(name)?.trim() || undefined;
  const online = p.get('online');
  const status = p.get('status');
  const dialect = p.get('dialect');
  return dropEmpty({
    q: text('q'),
    online: online === 'true' ? true : online === 'false' ? false : undefined,
    board: text('board'),
    firmware: text('firmware'),
    group: text('group'),
    tag: text('tag'),
    status: STATUSES.includes(status as DeviceStatus) ? (status as DeviceStatus) : undefined,
    dialect: DIALECTS.includes(dialect as Dialect) ? (dialect as Dialect) : undefined,
  });
}

export function filtersToSearch(filters: DeviceFilters): string {
  const p = new URLSearchParams();
  for (const [key, value] of Object.entries(dropEmpty(filters))) p.set(key, String(value));
  const s = p.toString();
  return s ? `?${s}` : '';
}

function dropEmpty(filters: DeviceFilters): DeviceFilters {
  const kept: DeviceFilters = Object.fromEntries(
    Object.entries(filters).filter(([, v]) => v !== undefined && v !== ''),
  );
  return kept;
}
