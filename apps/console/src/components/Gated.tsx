import type { ButtonHTMLAttributes } from 'react';
import { LEAST_ROLE, type Action } from '../auth/roles';
import { useCan } from '../auth/session';
import { useI18n } from '../i18n/i18n';

/**
 * A button for something a role may do. Without the role it stays visible but disabled, and says which role
 * it needs; `blockedBy` disables it for another reason (four-eyes), shown the same way. `quiet` keeps the
 * reason in the tooltip only (when a neighbouring button already says it).
 */
export function GatedButton({
  action,
  blockedBy,
  quiet,
  children,
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { action: Action; blockedBy?: string; quiet?: boolean }) {
  const { t } = useI18n();
  const allowed = useCan(action);
  const why = !allowed ? t('role.needs', { role: t(`role.${LEAST_ROLE[action]}`) }) : blockedBy;
  return (
    <span className="gated">
      <button {...rest} disabled={rest.disabled || why !== undefined} title={why ?? rest.title}>
        {children}
      </button>
      {why && !quiet && <small className="why">{why}</small>}
    </span>
  );
}

/** Shows its children only to a role that may do the action. */
export function IfCan({ action, children }: { action: Action; children: React.ReactNode }) {
  return useCan(action) ? <>{children}</> : null;
}
