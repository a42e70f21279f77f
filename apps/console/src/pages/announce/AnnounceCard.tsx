import { useState, type FormEvent } from 'react';
import { announcementsApi } from '../../api/announcements-api';
import { campaignsApi } from '../../api/campaigns-api';
import { navigate } from '../../app/navigation';
import { paths } from '../../app/router';
import { Card } from '../../components/Card';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';
import {
  bodyOf,
  EMPTY_ANNOUNCE_FORM,
  problemOf,
  scheduleBodyOf,
  selectionCampaign,
  textBytes,
  type AnnounceForm,
} from './announce-form';

type Target = { deviceId: string } | { deviceIds: readonly string[] };

/**
 * Compose an announcement: to one device (now, which opens its call page with the evidence, or on a schedule),
 * or to a selection of devices (an announcement campaign over exactly them, which opens the campaign's page).
 */
export function AnnounceCard({ target, onScheduled }: { target: Target; onScheduled?: () => void }) {
  const { t, number } = useI18n();
  const [form, setForm] = useState<AnnounceForm>(EMPTY_ANNOUNCE_FORM);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const update = (change: Partial<AnnounceForm>) => setForm((f) => ({ ...f, ...change }));
  const single = 'deviceId' in target;
  const problem = problemOf(form);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (problem) return;
    setBusy(true);
    setError(undefined);
    try {
      if (!single) {
        const created = await campaignsApi.create(selectionCampaign(target.deviceIds, form));
        await campaignsApi.step(created.id, 'start');
        return navigate(paths.campaign(created.id));
      }
      if (form.when === 'now') {
        const created = await announcementsApi.announce(target.deviceId, bodyOf(form));
        return navigate(paths.call(created.id));
      }
      await announcementsApi.schedule(target.deviceId, scheduleBodyOf(form));
      setForm(EMPTY_ANNOUNCE_FORM);
      onScheduled?.();
    } catch (err) {
      setError(err);
    }
    setBusy(false);
  };

  return (
    <Card
      title={
        single ? t('announce.title') : t('announce.title_selection', { n: number(target.deviceIds.length) })
      }
    >
      <form onSubmit={(e) => void submit(e)} className="stack" data-testid="announce-form">
        <label>
          {t('announce.text')}
          <textarea
            name="text"
            value={form.text}
            onChange={(e) => update({ text: e.target.value })}
            required
          />
          <small className="muted">{t('announce.bytes', { n: number(textBytes(form.text)) })}</small>
        </label>
        <div className="tabs" role="radiogroup" aria-label={t('announce.how')}>
          {(['alert', 'spoken', 'both'] as const).map((how) => (
            <label key={how} className="radio">
              <input
                type="radio"
                name="how"
                value={how}
                checked={form.how === how}
                onChange={() => update({ how })}
              />
              {t(`announce.how.${how}`)}
            </label>
          ))}
        </div>
        <p className="muted small">{t(`announce.how_note.${form.how}`)}</p>
        <label>
          {t('announce.title_line')}
          <input name="title" value={form.title} onChange={(e) => update({ title: e.target.value })} />
        </label>
        <label>
          {t('announce.language')}
          <input
            name="language"
            value={form.language}
            onChange={(e) => update({ language: e.target.value })}
          />
        </label>
        <label>
          {t('announce.deadline')}
          <input
            name="deadlineS"
            type="number"
            min={5}
            value={form.deadlineS}
            placeholder="3600"
            onChange={(e) => update({ deadlineS: e.target.value })}
          />
        </label>
        {single && (
          <div className="tabs" role="radiogroup" aria-label={t('announce.when')}>
            {(['now', 'at', 'cron'] as const).map((when) => (
              <label key={when} className="radio">
                <input
                  type="radio"
                  name="when"
                  value={when}
                  checked={form.when === when}
                  onChange={() => update({ when })}
                />
                {t(`announce.when.${when}`)}
              </label>
            ))}
          </div>
        )}
        {single && form.when === 'at' && (
          <input
            name="at"
            type="datetime-local"
            aria-label={t('announce.when.at')}
            value={form.at}
            onChange={(e) => update({ at: e.target.value })}
          />
        )}
        {single && form.when === 'cron' && (
          <input
            name="cron"
            aria-label={t('announce.when.cron')}
            placeholder="0 9 * * mon-fri"
            value={form.cron}
            onChange={(e) => update({ cron: e.target.value })}
          />
        )}
        {single && form.when === 'now' && (
          <label>
            {t('call_form.reason')}
            <input name="reason" value={form.reason} onChange={(e) => update({ reason: e.target.value })} />
          </label>
        )}
        {problem && form.text && <p className="note">{t(`announce.problem.${problem}`)}</p>}
        <p className="muted small">{t('announce.gate_note')}</p>
        <ErrorNote error={error} />
        <GatedButton
          action="announcement.create"
          type="submit"
          className="primary"
          disabled={!!problem || busy}
        >
          {single && form.when !== 'now' ? t('announce.schedule') : t('announce.submit')}
        </GatedButton>
      </form>
    </Card>
  );
}
