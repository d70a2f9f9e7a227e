import { validateCampaignImport } from '../src/domain/campaign-import.schema';
import { likeSubstring } from '../src/data-access/campaigns.repository';

describe('campaign import validation', () => {
  it('fills the optional fields with their defaults and reads timestamps with any offset as instants', () => {
    const result = validateCampaignImport([{ name: '  Trimmed  ' }, { name: 'Sent', status: 'sent', sent_at: '2026-01-01T01:00:00+01:00' }]);
    expect(result).toEqual({
      ok: true,
      campaigns: [
        {
          name: 'Trimmed',
          title: '',
          subject: null,
          status: 'draft',
          preview_text: '',
          emails_sent: 0,
          emails_failed: 0,
          total_recipients: 0,
          unsubscribes_count: 0,
          send_at: null,
          sent_at: null,
          created_at: null,
          updated_at: null,
        },
        expect.objectContaining({ status: 'sent', sent_at: new Date('2026-01-01T00:00:00Z') }),
      ],
    });
  });

  it('refuses a timestamp without a time zone, an impossible date, a fractional or negative count', () => {
    const result = validateCampaignImport([
      { name: 'a', send_at: '2026-01-01T10:00:00' },
      { name: 'b', send_at: '2026-02-30T10:00:00Z' },
      { name: 'c', emails_sent: 1.5, total_recipients: -2 },
    ]);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((problem) => problem.split(':')[0])).toEqual(['row 0', 'row 1', 'row 2', 'row 2']);
  });

  it('refuses a sent_at on a campaign that has not been sent, and a sent campaign without one', () => {
    const result = validateCampaignImport([
      { name: 'a', status: 'draft', sent_at: '2026-01-01T00:00:00Z' },
      { name: 'b', status: 'sent' },
    ]);
    expect(result).toEqual({
      ok: false,
      problems: ['row 0: sent_at: must be null when status is draft', 'row 1: sent_at: is required when status is sent'],
    });
  });

  it('accepts an empty array (nothing to do)', () => {
    expect(validateCampaignImport([])).toEqual({ ok: true, campaigns: [] });
  });
});

describe('likeSubstring', () => {
  it('escapes the LIKE wildcards and the escape character, and wraps the text in %', () => {
    expect(likeSubstring('50%_off\\now')).toBe('%50\\%\\_off\\\\now%');
    expect(likeSubstring('plain')).toBe('%plain%');
  });
});
