-- Exemption from schema.prisma (Prisma cannot describe triggers).
--
-- DESIGN §3: a campaign is immutable once started. When it starts (started_at set), its definition is copied into
-- `definition`; from then on neither that copy nor any column it was made from may change, for any role. The
-- runner cites the copy's SHA-256 (libs/domain canonicalJson) in every call's reason, so each device's evidence
-- chain seals the definition its call was made under. Only the run's own columns (state, phase, times) move.
CREATE FUNCTION campaign_definition_sealed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.started_at IS NULL THEN
    IF NEW.started_at IS NOT NULL THEN
      NEW.definition := jsonb_build_object(
        'id', NEW.id, 'name', NEW.name, 'createdBy', NEW.created_by, 'selector', NEW.selector,
        'action', NEW.action, 'rollout', NEW.rollout, 'abortRule', NEW.abort_rule, 'windows', NEW.windows,
        'deviceTimeoutS', NEW.device_timeout_s, 'retries', NEW.retries, 'skipInSession', NEW.skip_in_session,
        'doneWhen', NEW.done_when, 'phases', NEW.phases, 'reapprovalOf', NEW.reapproval_of,
        'rollbackOf', NEW.rollback_of);
    END IF;
    RETURN NEW;
  END IF;
  IF ROW(NEW.name, NEW.created_by, NEW.selector, NEW.action, NEW.rollout, NEW.abort_rule, NEW.windows,
         NEW.device_timeout_s, NEW.retries, NEW.skip_in_session, NEW.done_when, NEW.phases, NEW.reapproval_of,
         NEW.rollback_of, NEW.definition, NEW.started_at)
     IS DISTINCT FROM
     ROW(OLD.name, OLD.created_by, OLD.selector, OLD.action, OLD.rollout, OLD.abort_rule, OLD.windows,
         OLD.device_timeout_s, OLD.retries, OLD.skip_in_session, OLD.done_when, OLD.phases, OLD.reapproval_of,
         OLD.rollback_of, OLD.definition, OLD.started_at) THEN
    RAISE EXCEPTION 'campaign % was started: its definition is sealed', OLD.id
      USING ERRCODE = 'integrity_constraint_violation';
  END IF;
  RETURN NEW;
END
$$;

CREATE TRIGGER campaign_definition_sealed
  BEFORE UPDATE ON "campaign"
  FOR EACH ROW EXECUTE FUNCTION campaign_definition_sealed();

-- Campaigns started before this migration keep what they were started with, sealed the same way.
UPDATE "campaign" SET "definition" = jsonb_build_object(
    'id', id, 'name', name, 'createdBy', created_by, 'selector', selector, 'action', action, 'rollout', rollout,
    'abortRule', abort_rule, 'windows', windows, 'deviceTimeoutS', device_timeout_s, 'retries', retries,
    'skipInSession', skip_in_session, 'doneWhen', done_when, 'phases', phases, 'reapprovalOf', reapproval_of,
    'rollbackOf', rollback_of)
  WHERE started_at IS NOT NULL AND definition IS NULL;
