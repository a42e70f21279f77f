import type { AnnouncementHow, Verdict } from '@fleet/domain';

/**
 * When one device of an announcement campaign counts as done, by how it was announced rather than the campaign's
 * doneWhen: an alert when its call was sealed with the `alert_published` effect (the firmware answers an alert
 * with nothing, so that is all it can prove: xiaozhi §2.2), counted as `acknowledged`; speech only once it was
 * heard through (`verified`). Anything else is not done, and the campaign runner treats it as any other verdict.
 */
export function announcementCampaignDone(
  how: AnnouncementHow,
  verdict: Verdict,
  effectMethod: string | undefined,
): 'verified' | 'acknowledged' | undefined {
  if (how === 'alert')
    return verdict === 'no_response' && effectMethod === 'alert_published' ? 'acknowledged' : undefined;
  return verdict === 'verified' ? 'verified' : undefined;
}
