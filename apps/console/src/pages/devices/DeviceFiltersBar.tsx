import { DIALECTS, type DeviceFilters, type DeviceStatus, type Dialect } from '@fleet/api-contract';
import { useI18n } from '../../i18n/i18n';
import { useFleetFacets } from './useFleetFacets';
import { isolatedText } from '../../text/device-text';

const STATUSES: DeviceStatus[] = ['active', 'awaiting_activation', 'revoked', 'decommissioned'];

export function DeviceFiltersBar({
  filters,
  onChange,
}: {
  filters: DeviceFilters;
  onChange: (next: DeviceFilters) => void;
}) {
  const { t } = useI18n();
  const facets = useFleetFacets().data;
  const set = <K extends keyof DeviceFilters>(key: K, value: DeviceFilters[K] | '') =>
    onChange({ ...filters, [key]: value === '' ? undefined : value });
  return (
    <div className="filters" role="search">
      <input
        type="search"
        placeholder={t('devices.search')}
        aria-label={t('devices.search')}
        value={filters.q ?? ''}
        onChange={(e) => set('q', e.target.value)}
        className="search"
      />
      <select
        aria-label={t('devices.presence')}
        value={filters.online === undefined ? '' : String(filters.online)}
        onChange={(e) => set('online', e.target.value === '' ? '' : e.target.value === 'true')}
      >
        <option value="">{t('devices.any_presence')}</option>
        <option value="true">{t('device.online')}</option>
        <option value="false">{t('device.offline')}</option>
      </select>
      <select
        aria-label={t('device.board')}
        value={filters.board ?? ''}
        onChange={(e) => set('board', e.target.value)}
      >
        <option value="">{t('devices.any_board')}</option>
        {facets?.boards.map((b) => (
          <option key={b.label} value={b.label}>
            {isolatedText(b.label)} ({b.value})
          </option>
        ))}
      </select>
      <select
        aria-label={t('device.firmware')}
        value={filters.firmware ?? ''}
        onChange={(e) => set('firmware', e.target.value)}
      >
        <option value="">{t('devices.any_firmware')}</option>
        {facets?.firmware.map((f) => (
          <option key={f.label} value={f.label}>
            {isolatedText(f.label)} ({f.value})
          </option>
        ))}
      </select>
      <input
        placeholder={t('device.group')}
        aria-label={t('device.group')}
        value={filters.group ?? ''}
        onChange={(e) => set('group', e.target.value)}
      />
      <input
        placeholder={t('device.tag')}
        aria-label={t('device.tag')}
        value={filters.tag ?? ''}
        onChange={(e) => set('tag', e.target.value)}
      />
      <select
        aria-label={t('device.dialect')}
        value={filters.dialect ?? ''}
        onChange={(e) => set('dialect', e.target.value as Dialect | '')}
      >
        <option value="">{t('devices.any_dialect')}</option>
        {DIALECTS.map((d) => (
          <option key={d} value={d}>
            {t(`dialect.${d}`)}
          </option>
        ))}
      </select>
      <select
        aria-label={t('device.status')}
        value={filters.status ?? ''}
        onChange={(e) => set('status', e.target.value as DeviceStatus | '')}
      >
        <option value="">{t('devices.any_status')}</option>
        {STATUSES.map((s) => (
          <option key={s} value={s}>
            {t(`device.status.${s}`)}
          </option>
        ))}
      </select>
    </div>
  );
}
