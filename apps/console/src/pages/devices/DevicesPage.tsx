import { useEffect, useState } from 'react';
import type { DeviceFilters } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { IfCan } from '../../components/Gated';
import { AnnounceCard } from '../announce/AnnounceCard';
import { useI18n } from '../../i18n/i18n';
import { filtersFromSearch, filtersToSearch } from './device-filters';
import { DeviceFiltersBar } from './DeviceFiltersBar';
import { DeviceTable } from './DeviceTable';
import { useDevicePages } from './useDevicePages';
import { useDebounced } from '../../hooks/useDebounced';

export function DevicesPage() {
  const { t, number } = useI18n();
  const [filters, setFilters] = useState<DeviceFilters>(() => filtersFromSearch(location.search));
  const settled = useDebounced(filters, 250);
  useEffect(() => {
    history.replaceState(null, '', `${location.pathname}${filtersToSearch(settled)}`);
  }, [settled]);
  const pages = useDevicePages(settled);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setSelected((s) => {
      const next = new Set(s);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div data-page="devices">
      <header className="page-head row">
        <h1>{t('devices.title')}</h1>
        <IfCan action="device.register">
          <Link to={paths.registerDevice()} className="button" data-testid="register-device">
            {t('devices.register')}
          </Link>
        </IfCan>
      </header>
      <DeviceFiltersBar filters={filters} onChange={setFilters} />
      <p className="muted" data-testid="device-count">
        {pages.hasMore
          ? t('devices.shown_more', { n: number(pages.items.length) })
          : pages.items.length === 1
            ? t('devices.shown_one')
            : t('devices.shown_all', { n: number(pages.items.length) })}
      </p>
      <ErrorNote error={pages.error} />
      {/* A new filter starts at the top of a new list. */}
      <DeviceTable key={JSON.stringify(settled)} pages={pages} selected={selected} onToggle={toggle} />
      {selected.size > 0 && (
        <IfCan action="announcement.create">
          <AnnounceCard target={{ deviceIds: [...selected].sort() }} />
          <button type="button" onClick={() => setSelected(new Set())}>
            {t('devices.clear_selection')}
          </button>
        </IfCan>
      )}
    </div>
  );
}
