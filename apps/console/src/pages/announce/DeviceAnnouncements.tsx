import { announcementsApi } from '../../api/announcements-api';
import { ErrorNote } from '../../components/ErrorNote';
import { useAsync } from '../../hooks/useAsync';
import { AnnounceCard } from './AnnounceCard';
import { ScheduleList } from './ScheduleList';

/** A device page's announcements: the compose form and the device's schedules. */
export function DeviceAnnouncements({ deviceId }: { deviceId: string }) {
  const schedules = useAsync(() => announcementsApi.schedules(deviceId), [deviceId]);
  return (
    <div className="grid two">
      <AnnounceCard target={{ deviceId }} onScheduled={schedules.reload} />
      <div>
        <ErrorNote error={schedules.error} />
        <ScheduleList
          schedules={schedules.data?.items ?? []}
          showDevice={false}
          onChange={schedules.reload}
        />
      </div>
    </div>
  );
}
