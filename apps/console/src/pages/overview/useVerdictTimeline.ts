import { useEffect, useState } from 'react';
import { fleetApi } from '../../api/fleet-api';
import { VERDICTS } from '../../domain/constants';
import { useEvents } from '../../hooks/useEvents';
import { addCall, emptyBuckets, roll, type Bucket } from './verdict-timeline';

export const BUCKET_MS = 5 * 60_000;
export const BUCKETS = 12;

/**
 * Calls by verdict per five minutes over the last hour: read once from the fleet summary (its intervals are
 * aligned like these), then kept current from the live `call` events as verdicts are sealed.
 */
export function useVerdictTimeline(): { buckets: Bucket[]; loading: boolean } {
  const [buckets, setBuckets] = useState(() => emptyBuckets(Date.now(), BUCKET_MS, BUCKETS));
  const [loading, setLoading] = useState(true);

  useEffect(() => {
    let live = true;
    const initial = emptyBuckets(Date.now(), BUCKET_MS, BUCKETS);
    void fleetApi
      .summary(BUCKETS * (BUCKET_MS / 1000), BUCKET_MS / 1000)
      .then((summary) => {
        const counted = new Map(summary.calls.buckets.map((b) => [Date.parse(b.start), b.byVerdict]));
        return initial.map((b) => {
          const counts: Bucket['counts'] = {};
          const read = counted.get(b.start) ?? {};
          for (const v of VERDICTS) if (read[v]) counts[v] = read[v];
          return { start: b.start, counts };
        });
      })
      .then((read) => {
        if (!live) return;
        // Live events that arrived while the report was read are in `current`: add them on top.
        setBuckets((current) =>
          read.map((b, i) => ({ start: b.start, counts: sum(b.counts, current[i]?.counts ?? {}) })),
        );
      })
      .finally(() => live && setLoading(false));
    const timer = setInterval(() => setBuckets((current) => roll(current, Date.now(), BUCKET_MS)), 15_000);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, []);

  useEvents(['call'], (event) => {
    if (event.verdict)
      setBuckets((current) =>
        addCall(roll(current, Date.now(), BUCKET_MS), BUCKET_MS, Date.parse(event.at), event.verdict!),
      );
  });
  return { buckets, loading };
}

function sum(a: Bucket['counts'], b: Bucket['counts']): Bucket['counts'] {
  const out = { ...a };
  for (const v of VERDICTS) if (b[v]) out[v] = (out[v] ?? 0) + b[v];
  return out;
}
