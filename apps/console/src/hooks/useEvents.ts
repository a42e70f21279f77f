import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { eventStream, type EventOf, type EventType, type PlatformEvent } from '../api/events';

/** Calls `handler` for every live event of the given types while the component is shown. */
export function useEvents<T extends EventType>(
  types: readonly T[],
  handler: (event: EventOf<T>) => void,
): void {
  const handlerRef = useRef(handler);
  useLayoutEffect(() => {
    handlerRef.current = handler;
  });
  const key = types.join(',');
  useEffect(() => {
    const wanted = new Set<string>(key.split(','));
    return eventStream.subscribe((event: PlatformEvent) => {
      if (wanted.has(event.type)) handlerRef.current(event as EventOf<T>);
    });
  }, [key]);
}

/**
 * Re-reads a view when a live event concerns it: at most once per `intervalMs` (a burst of notices during a
 * campaign makes one request, not hundreds), and once more after the burst so the last change is shown.
 */
export function useLiveReload<T extends EventType>(
  types: readonly T[],
  concerns: (event: EventOf<T>) => boolean,
  reload: () => void,
  intervalMs = 1000,
): void {
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const last = useRef(0);
  useEvents(types, (event) => {
    if (!concerns(event) || timer.current !== undefined) return;
    const wait = Math.max(0, last.current + intervalMs - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      reload();
    }, wait);
  });
  useEffect(() => () => clearTimeout(timer.current), []);
}

/** Whether the live event stream is connected (shown in the header). */
export function useLiveConnection(): boolean {
  const [open, setOpen] = useState(eventStream.open);
  useEffect(() => eventStream.onConnection(setOpen), []);
  return open;
}
