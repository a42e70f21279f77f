import { announcementCampaignDone } from './announcement-campaign-done';

describe('when a device of an announcement campaign is done', () => {
  it('counts an alert done once sealed with its alert_published effect, as shown and no more', () => {
    expect(announcementCampaignDone('alert', 'no_response', 'alert_published')).toBe('acknowledged');
  });

  it('does not count an alert that was never published, or sealed without that effect', () => {
    expect(announcementCampaignDone('alert', 'undelivered', undefined)).toBeUndefined();
    expect(announcementCampaignDone('alert', 'no_response', undefined)).toBeUndefined();
    expect(announcementCampaignDone('alert', 'rejected', undefined)).toBeUndefined();
  });

  it('counts speech done only when verified, even when its alert went out', () => {
    expect(announcementCampaignDone('spoken', 'verified', 'playback_observed')).toBe('verified');
    expect(announcementCampaignDone('both', 'verified', 'playback_observed')).toBe('verified');
    expect(announcementCampaignDone('both', 'no_response', 'playback_observed')).toBeUndefined();
    expect(announcementCampaignDone('spoken', 'undelivered', 'playback_observed')).toBeUndefined();
  });
});
