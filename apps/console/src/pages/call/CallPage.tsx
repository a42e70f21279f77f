import { callsApi } from '../../api/calls-api';
import { devicesApi } from '../../api/devices-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useLiveReload } from '../../hooks/useEvents';
import { CallHeader } from './CallHeader';
import { CallPeople } from './CallPeople';
import { EvidenceTimeline } from './EvidenceTimeline';
import { RawExchangeCard } from './RawExchangeCard';

/** One call: its verdict in words, the five evidence stages, the raw exchange, who asked and who approved. */
export function CallPage({ id }: { id: string }) {
  const call = useAsync(() => callsApi.get(id), [id]);
  // The request is shown in the device's own envelope (its dialect).
  const deviceId = call.data?.deviceId;
  const device = useAsync(
    () => (deviceId ? devicesApi.get(deviceId) : Promise.resolve(undefined)),
    [deviceId],
  );
  useLiveReload(['call'], (e) => e.callId === id, call.reload, 300);
  useLiveReload(['approval'], (e) => e.callId === id, call.reload, 300);
  if (call.error) return <ErrorNote error={call.error} />;
  if (!call.data) return <Loading />;
  return (
    <div data-page="call" data-call-state={call.data.state} data-verdict={call.data.verdict ?? ''}>
      <CallHeader call={call.data} onChanged={call.reload} />
      <div className="grid two">
        <CallPeople call={call.data} />
        <RawExchangeCard call={call.data} dialect={device.data?.dialect} />
      </div>
      <EvidenceTimeline call={call.data} />
    </div>
  );
}
