import { announcementsApi } from '../../api/announcements-api';
import { ErrorNote } from '../../components/ErrorNote';
import { Loading } from '../../components/Loading';
import { useAsync } from '../../hooks/useAsync';
import { useI18n } from '../../i18n/i18n';
import { ScheduleList } from './ScheduleList';

/** Every announcement schedule (a key bounded to groups sees its devices' only), newest first. */
export function SchedulesPage() {
  const { t } = useI18n();
  const schedules = useAsync(() => announcementsApi.schedules(), []);
  return (
    <div data-page="schedules">
      <header className="page-head">
        <h1>{t('schedules.page_title')}</h1>
      </header>
      <ErrorNote error={schedules.error} />
      {schedules.data ? (
        <ScheduleList schedules={schedules.data.items} showDevice onChange={schedules.reload} />
      ) : (
        !schedules.error && <Loading />
      )}
    </div>
  );
}
