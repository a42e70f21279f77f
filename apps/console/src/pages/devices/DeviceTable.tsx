import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef } from 'react';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Ago } from '../../components/Time';
import { useI18n } from '../../i18n/i18n';
import type { DevicePages } from './useDevicePages';
import { DeviceText } from '../../components/DeviceText';
import { isolatedText } from '../../text/device-text';

const ROW_HEIGHT = 40;

/**
 * Only the rows in view (plus a few) are in the DOM, however many are loaded: 10,000 devices scroll as
 * smoothly as 10. Reaching the last rows loads the next page.
 */
export function DeviceTable({
  pages,
  selected,
  onToggle,
}: {
  pages: DevicePages;
  /** Devices picked for an announcement to a selection (a checkbox per row). */
  selected: ReadonlySet<string>;
  onToggle: (deviceId: string) => void;
}) {
  const { t } = useI18n();
  const scroller = useRef<HTMLDivElement>(null);
  const { items, hasMore, loadMore } = pages;
  // eslint-disable-next-line react-hooks/incompatible-library -- TanStack Virtual returns fresh functions by design
  const virtualizer = useVirtualizer({
    count: items.length + (hasMore ? 1 : 0),
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const rows = virtualizer.getVirtualItems();
  const lastIndex = rows[rows.length - 1]?.index ?? 0;
  useEffect(() => {
    if (hasMore && lastIndex >= items.length - 30) loadMore();
  }, [lastIndex, hasMore, items.length, loadMore]);

  return (
    <div className="device-table" role="table" aria-label={t('devices.title')} aria-rowcount={items.length}>
      <div className="device-row head" role="row">
        <span role="columnheader">{t('device.id')}</span>
        <span role="columnheader">{t('devices.presence')}</span>
        <span role="columnheader">{t('device.dialect')}</span>
        <span role="columnheader">{t('device.board')}</span>
        <span role="columnheader">{t('device.firmware')}</span>
        <span role="columnheader">{t('device.chip')}</span>
        <span role="columnheader">{t('device.status')}</span>
        <span role="columnheader">{t('device.last_seen')}</span>
      </div>
      <div ref={scroller} className="device-scroller" data-testid="device-scroller">
        <div style={{ height: virtualizer.getTotalSize(), position: 'relative' }}>
          {rows.map((row) => {
            const device = items[row.index];
            return (
              <div
                key={row.key}
                className="device-row"
                role="row"
                data-device={device?.id}
                style={{
                  position: 'absolute',
                  top: 0,
                  left: 0,
                  right: 0,
                  height: ROW_HEIGHT,
                  transform: `translateY(${row.start}px)`,
                }}
              >
                {device ? (
                  <>
                    <span role="cell">
                      <input
                        type="checkbox"
                        aria-label={t('devices.select', { id: device.id })}
                        data-testid="device-select"
                        checked={selected.has(device.id)}
                        onChange={() => onToggle(device.id)}
                      />{' '}
                      <Link to={paths.device(device.id)} className="mono">
                        {device.id}
                      </Link>
                    </span>
                    <span role="cell">
                      <span className={`dot ${device.online ? 'on' : 'off'}`} />{' '}
                      {device.online ? t('device.online') : t('device.offline')}
                    </span>
                    <span role="cell" data-testid="device-dialect">
                      {t(`dialect.${device.dialect}`)}
                    </span>
                    <span role="cell" title={device.boardName ? isolatedText(device.boardName) : undefined}>
                      <DeviceText text={device.board ?? '—'} />
                    </span>
                    <span role="cell">
                      <DeviceText text={device.firmwareVersion ?? '—'} />
                    </span>
                    <span role="cell">
                      <DeviceText text={device.chipModel ?? '—'} />
                    </span>
                    <span role="cell">{t(`device.status.${device.status}`)}</span>
                    <span role="cell">
                      <Ago at={device.lastSeenAt} />
                    </span>
                  </>
                ) : (
                  <span className="muted">{t('common.loading')}</span>
                )}
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
