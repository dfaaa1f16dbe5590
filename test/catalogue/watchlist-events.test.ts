import {
  DEFAULT_WATCHLIST_SOURCES,
  emptyJobChangeSignalFields,
  emptyWatchlistSignalFields,
  enabledWatchlistEvents,
  isPersonLevelEvent,
  isWatchlistEventKey,
  JOB_CHANGE_SIGNAL_FIELDS,
  lastSignalLabel,
  NEWS_EVENT_TYPES,
  resolveWatchlistSources,
  WATCHLIST_EVENT_KEYS,
  WATCHLIST_LAST_SIGNAL_LABELS,
  WATCHLIST_SIGNAL_FIELDS,
} from '../../src/catalogue/watchlist-events';

describe('watchlist events', () => {
  it('has the 14 event keys in spec order', () => {
    expect(WATCHLIST_EVENT_KEYS).toEqual([
      'fundraising',
      'mergers_acquisitions',
      'forecasted_funding',
      'forecasted_ipo',
      'forecasted_acquisition',
      'forecasted_growth',
      'public_tenders',
      'job_offers',
      'recruitment_campaign',
      'new_decision_makers',
      'company_post_reactions',
      'competitor_social_reactions',
      'competitor_connections',
      'company_news',
    ]);
    expect(isWatchlistEventKey('forecasted_ipo')).toBe(true);
    expect(isWatchlistEventKey('job_change')).toBe(false);
    expect(isWatchlistEventKey(undefined)).toBe(false);
  });

  it('enables everything by default except company_news', () => {
    const disabled = WATCHLIST_EVENT_KEYS.filter((key) => !DEFAULT_WATCHLIST_SOURCES[key].enabled);
    expect(disabled).toEqual(['company_news']);
    expect(enabledWatchlistEvents()).toHaveLength(13);
    expect(enabledWatchlistEvents()).not.toContain('company_news');
  });

  it('merges sent sources over the defaults', () => {
    const resolved = resolveWatchlistSources({
      company_news: { enabled: true },
      fundraising: { enabled: false },
      unknown: { enabled: true },
    });
    expect(resolved.company_news).toEqual({ enabled: true });
    expect(resolved.fundraising).toEqual({ enabled: false });
    expect(resolved.job_offers).toEqual({ enabled: true });
    expect(Object.keys(resolved)).toEqual([...WATCHLIST_EVENT_KEYS]);
    expect(resolveWatchlistSources({ fundraising: {} }).fundraising).toEqual({ enabled: true });
    expect(enabledWatchlistEvents({ company_news: { enabled: true } })).toHaveLength(14);
  });

  it('labels every event with the last_signal of the spec and contract', () => {
    expect(lastSignalLabel('fundraising')).toBe('Watched Company Raised');
    expect(lastSignalLabel('mergers_acquisitions')).toBe('Watched Company Deal');
    expect(lastSignalLabel('competitor_connections')).toBe('Competitor Relationship Monitoring');
    expect(lastSignalLabel('company_news')).toBe('Company News');
    expect(new Set(Object.values(WATCHLIST_LAST_SIGNAL_LABELS))).toEqual(
      new Set([
        'Watched Company Raised',
        'Watched Company Deal',
        'Job Offer',
        'Recruitment Campaign',
        'New Decision Maker Watchlist',
        'Public Tenders Watchlist',
        'Watched Company Likely to Raise',
        'Watched Company on a Path to IPO',
        'Watched Company Likely Acquisition Target',
        'Watched Company Expected to Scale',
        'Company Post Reactions',
        'Competitor Social Reactions',
        'Competitor Relationship Monitoring',
        'Company News',
      ]),
    );
  });

  it('knows which events are about a person', () => {
    const personLevel = WATCHLIST_EVENT_KEYS.filter(isPersonLevelEvent);
    expect(personLevel).toEqual([
      'new_decision_makers',
      'company_post_reactions',
      'competitor_social_reactions',
      'competitor_connections',
    ]);
    expect(isPersonLevelEvent('fundraising')).toBe(false);
  });

  it('builds an all-empty watchlist signal block', () => {
    const block = emptyWatchlistSignalFields();
    expect(Object.keys(block)).toEqual([...WATCHLIST_SIGNAL_FIELDS]);
    expect(Object.values(block).every((value) => value === '')).toBe(true);
    expect(block).toHaveProperty('job_offer_published_date', '');
    expect(block).toHaveProperty('watchlist_role', '');
    expect(block).toHaveProperty('news_event_location', '');
    expect(block).toHaveProperty('engagement_type', '');
    block.funding_amount_usd = 5_000_000;
    expect(emptyWatchlistSignalFields().funding_amount_usd).toBe('');
  });

  it('names the job-change signal fields', () => {
    expect(JOB_CHANGE_SIGNAL_FIELDS).toEqual([
      'previous_title',
      'previous_company',
      'new_title',
      'new_company',
      'new_job_started_on',
      'new_job_start_month',
      'change_type',
    ]);
    expect(emptyJobChangeSignalFields()).toEqual(Object.fromEntries(JOB_CHANGE_SIGNAL_FIELDS.map((f) => [f, ''])));
  });

  it('has the eight news event types', () => {
    expect(NEWS_EVENT_TYPES).toHaveLength(8);
    expect(NEWS_EVENT_TYPES).toContain('event_participation');
  });
});
