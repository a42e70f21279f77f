import type { AnnouncementSchedule } from '@fleet/api-contract';
import { useState } from 'react';
import { announcementsApi, type ScheduleStep } from '../../api/announcements-api';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { DeviceText } from '../../components/DeviceText';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';

/** The steps a schedule in each state may take (the API answers 409 to any other). */
const STEPS: Record<AnnouncementSchedule['state'], ScheduleStep[]> = {
  active: ['pause', 'cancel'],
  paused: ['resume', 'cancel'],
  cancelled: [],
  finished: [],
};

/** Announcement schedules (one device's, or all): when each runs, how often it ran, and its steps. */
export function ScheduleList({
  schedules,
  showDevice,
  onChange,
}: {
  schedules: AnnouncementSchedule[];
  showDevice: boolean;
  onChange: () => void;
}) {
  const { t, number, dateTime } = useI18n();
  const [error, setError] = useState<unknown>();
  const step = async (id: string, s: ScheduleStep) => {
    setError(undefined);
    try {
      await announcementsApi.step(id, s);
    } catch (err) {
      setError(err);
    }
    onChange();
  };
  return (
    <Card title={t('schedules.title')}>
      <ErrorNote error={error} />
      {schedules.length === 0 ? (
        <p className="muted">{t('schedules.none')}</p>
      ) : (
        <ul className="timeline" data-testid="schedule-list">
          {schedules.map((s) => (
            <li key={s.id} data-schedule={s.id} data-state={s.state}>
              {showDevice && (
                <>
                  <Link to={paths.device(s.deviceId)} className="mono">
                    {s.deviceId}
                  </Link>{' '}
                </>
              )}
              <DeviceText text={typeof s.arguments['text'] === 'string' ? s.arguments['text'] : ''} />{' '}
              <span className="muted">
                {s.cron ? <code>{s.cron}</code> : t('schedules.once')} {s.timeZone} ·{' '}
                {t(`schedules.state.${s.state}`)} · {t('schedules.runs', { n: number(s.runs) })}
              </span>
              {s.nextRunAt && (
                <span className="muted">
                  {' '}
                  · {t('schedules.next')} <time dateTime={s.nextRunAt}>{dateTime(s.nextRunAt)}</time>
                </span>
              )}
              {s.lastCallId && (
                <>
                  {' '}
                  · <Link to={paths.call(s.lastCallId)}>{t('schedules.last_call')}</Link>
                </>
              )}
              {s.lastError && (
                <small className="note" data-testid="schedule-error">
                  {' '}
                  <DeviceText text={s.lastError} />
                </small>
              )}{' '}
              {STEPS[s.state].map((st) => (
                <GatedButton key={st} action="schedule.steer" quiet onClick={() => void step(s.id, st)}>
                  {t(`schedules.step.${st}`)}
                </GatedButton>
              ))}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
