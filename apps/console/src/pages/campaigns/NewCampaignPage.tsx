import { useState, type FormEvent } from 'react';
import { campaignsApi } from '../../api/campaigns-api';
import { navigate } from '../../app/navigation';
import { paths } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';
import { ActionFields } from './ActionFields';
import { actionOf, draftOf, EMPTY_FORM, selectorOf, type CampaignForm } from './campaign-form';
import { RolloutFields } from './RolloutFields';
import { SelectorFields } from './SelectorFields';

/** A new campaign: which devices (with a live count), what to do, how fast, and when to stop. */
export function NewCampaignPage() {
  const { t } = useI18n();
  const [form, setForm] = useState<CampaignForm>(EMPTY_FORM);
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const update = (patch: Partial<CampaignForm>) => setForm((f) => ({ ...f, ...patch }));
  const selector = selectorOf(form);
  const action = actionOf(form);

  const submit = async (event: FormEvent, start: boolean) => {
    event.preventDefault();
    if (!selector || !action.ok) return;
    setBusy(true);
    setError(undefined);
    try {
      const created = await campaignsApi.create(draftOf(form, selector, action.action));
      if (start) await campaignsApi.step(created.id, 'start');
      navigate(paths.campaign(created.id));
    } catch (err) {
      setError(err);
      setBusy(false);
    }
  };

  const ready = Boolean(form.name.trim() && selector && action.ok);
  return (
    <form data-page="campaign-new" className="stack" onSubmit={(e) => void submit(e, true)}>
      <h1>{t('campaigns.new')}</h1>
      <label>
        {t('campaign.name')}
        <input name="name" required value={form.name} onChange={(e) => update({ name: e.target.value })} />
      </label>
      <div className="grid two">
        <SelectorFields
          form={form}
          update={update}
          selector={selector}
          action={action.ok ? action.action : undefined}
        />
        <ActionFields form={form} update={update} problem={action.ok ? undefined : action.problem} />
      </div>
      <RolloutFields form={form} update={update} />
      <ErrorNote error={error} />
      <div className="row">
        <GatedButton action="campaign.create" type="submit" className="primary" disabled={!ready || busy}>
          {t('campaigns.create_and_start')}
        </GatedButton>
        <GatedButton
          action="campaign.create"
          type="button"
          quiet
          disabled={!ready || busy}
          onClick={(e) => void submit(e, false)}
        >
          {t('campaigns.save_draft')}
        </GatedButton>
      </div>
    </form>
  );
}
