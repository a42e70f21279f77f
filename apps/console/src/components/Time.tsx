import { useI18n } from '../i18n/i18n';

/** "2 min ago", with the exact time as the tooltip. */
export function Ago({ at }: { at: string | null | undefined }) {
  const { ago, dateTime } = useI18n();
  if (!at) return <span className="muted">—</span>;
  return (
    <time dateTime={at} title={dateTime(at)}>
      {ago(at)}
    </time>
  );
}

export function DateTime({ at }: { at: string | null | undefined }) {
  const { dateTime } = useI18n();
  if (!at) return <span className="muted">—</span>;
  return <time dateTime={at}>{dateTime(at)}</time>;
}
