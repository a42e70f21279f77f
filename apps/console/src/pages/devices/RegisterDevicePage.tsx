import { useState, type FormEvent } from 'react';
import { devicesApi } from '../../api/devices-api';
import type { IssuedLinkToken } from '@fleet/api-contract';
import { Link } from '../../app/navigation';
import { paths } from '../../app/router';
import { ErrorNote } from '../../components/ErrorNote';
import { GatedButton } from '../../components/Gated';
import { useI18n } from '../../i18n/i18n';
import { IssuedTokenCard } from './IssuedTokenCard';

/**
 * DESIGN §3 "The ListenAI link": an operator registers a ListenAI device by its MAC (xiaozhi devices register
 * themselves at their first check-in) and gets the token it presents on its link, once.
 */
export function RegisterDevicePage() {
  const { t } = useI18n();
  const [mac, setMac] = useState('');
  const [model, setModel] = useState('');
  const [issued, setIssued] = useState<IssuedLinkToken>();
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      setIssued(
        await devicesApi.register({
          id: mac.trim(),
          dialect: 'listenai',
          ...(model.trim() ? { model: model.trim() } : {}),
        }),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-page="device-register" className="stack">
      <h1>{t('register.title')}</h1>
      <p className="muted">{t('register.intro')}</p>
      {issued ? (
        <>
          <IssuedTokenCard issued={issued} />
          <p>
            <Link to={paths.device(issued.deviceId)}>{t('register.open_device')}</Link>
          </p>
        </>
      ) : (
        <form className="stack" onSubmit={(e) => void submit(e)}>
          <label>
            {t('register.mac')}
            <input
              name="mac"
              required
              value={mac}
              placeholder="a0:85:e3:f4:49:34"
              onChange={(e) => setMac(e.target.value)}
            />
          </label>
          <label>
            {t('register.model')}
            <input
              name="model"
              value={model}
              placeholder="arcs-mini"
              onChange={(e) => setModel(e.target.value)}
            />
            <small className="muted">{t('register.model_hint')}</small>
          </label>
          <ErrorNote error={error} />
          <GatedButton
            action="device.register"
            type="submit"
            className="primary"
            disabled={busy || !mac.trim()}
          >
            {t('register.submit')}
          </GatedButton>
        </form>
      )}
    </div>
  );
}
