import { useCallback, useEffect, useRef, useState } from 'react';
import { devicesApi } from '../../api/devices-api';
import type { DeviceFilters, DeviceSummary } from '@fleet/api-contract';
import { useEvents } from '../../hooks/useEvents';

const PAGE = 200;

export interface DevicePages {
  items: DeviceSummary[];
  hasMore: boolean;
  error: Error | undefined;
  /** Fetches the next page unless one is on its way already. */
  loadMore: () => void;
}

interface Loaded {
  key: string;
  items: DeviceSummary[];
  cursor: string | null;
}

/**
 * The device list a page at a time with the API's keyset cursor (fast at any fleet size): the first page when
 * the filters change (the old rows stay until it arrives), the next one when the list is scrolled near its
 * end. Presence events update the rows already loaded, in place.
 */
export function useDevicePages(filters: DeviceFilters): DevicePages {
  const key = JSON.stringify(filters);
  const [loaded, setLoaded] = useState<Loaded>({ key: '', items: [], cursor: null });
  const [error, setError] = useState<Error>();
  const inflight = useRef<{ key: string; controller: AbortController }>(undefined);

  const fetchPage = useCallback((forKey: string, after: string | undefined) => {
    inflight.current?.controller.abort();
    const controller = new AbortController();
    inflight.current = { key: forKey, controller };
    devicesApi.list(JSON.parse(forKey) as DeviceFilters, PAGE, after, controller.signal).then(
      (page) => {
        if (controller.signal.aborted) return;
        inflight.current = undefined;
        setLoaded((current) => ({
          key: forKey,
          items: after && current.key === forKey ? [...current.items, ...page.items] : page.items,
          cursor: page.nextCursor,
        }));
        setError(undefined);
      },
      (err: unknown) => {
        if (controller.signal.aborted) return;
        inflight.current = undefined;
        setError(err instanceof Error ? err : new Error(String(err)));
      },
    );
  }, []);

  useEffect(() => {
    fetchPage(key, undefined);
    return () => inflight.current?.controller.abort();
  }, [key, fetchPage]);

  const loadMore = useCallback(() => {
    if (inflight.current || loaded.key !== key || !loaded.cursor) return;
    fetchPage(key, loaded.cursor);
  }, [key, loaded, fetchPage]);

  useEvents(['presence'], (event) => {
    setLoaded((current) => {
      const i = current.items.findIndex((d) => d.id === event.deviceId);
      if (i < 0) return current;
      const items = current.items.slice();
      items[i] = { ...current.items[i]!, online: event.state === 'online', lastSeenAt: event.at };
      return { ...current, items };
    });
  });

  return { items: loaded.items, hasMore: loaded.key !== key || loaded.cursor !== null, error, loadMore };
}
