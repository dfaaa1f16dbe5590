/**
 * Board documents as each vendor documents them (fields and shapes from the vendors' public
 * API documentation: Greenhouse Job Board API `jobs?content=true`, Lever Postings API
 * `mode=json`, Ashby public Job Posting API), with only the values made up.
 */

/** Greenhouse: `content` is the job's HTML, itself HTML-escaped. */
export function greenhouseJob(id: number, title: string, location: string, updatedAt = '2026-11-20T10:55:28-05:00') {
  return {
    id,
    internal_job_id: id + 1000,
    title,
    updated_at: updatedAt,
    requisition_id: `REQ-${id}`,
    location: { name: location },
    absolute_url: `https://boards.greenhouse.io/acme/jobs/${id}`,
    metadata: null,
    content:
      '&lt;p&gt;&lt;strong&gt;About the role&lt;/strong&gt;&lt;/p&gt;&lt;p&gt;You will build our data platform &amp;amp; its APIs.&lt;/p&gt;&lt;ul&gt;&lt;li&gt;TypeScript&lt;/li&gt;&lt;li&gt;PostgreSQL&lt;/li&gt;&lt;/ul&gt;',
    departments: [{ id: 4009, name: 'Engineering', parent_id: null, child_ids: [] }],
    offices: [{ id: 1607, name: location, location, parent_id: null, child_ids: [] }],
  };
}

export const greenhouseBoard = (jobs: unknown[]) => ({ jobs, meta: { total: jobs.length } });

/** Lever: an array of postings; `createdAt` in epoch milliseconds. */
export function leverPosting(id: string, text: string, location: string, createdAt = Date.UTC(2026, 10, 18, 9, 0)) {
  return {
    id,
    text,
    categories: { location, commitment: 'Full-time', team: 'Sales', department: 'Go to market' },
    country: 'FR',
    opening: '<div>Join us.</div>',
    openingPlain: 'Join us.',
    description: '<div><b>Account Executive</b> for southern Europe.</div>',
    descriptionPlain: 'Account Executive for southern Europe.',
    lists: [{ text: 'What you will do', content: '<li>Close deals</li>' }],
    additional: '<div>Remote possible.</div>',
    additionalPlain: 'Remote possible.',
    hostedUrl: `https://jobs.lever.co/beta/${id}`,
    applyUrl: `https://jobs.lever.co/beta/${id}/apply`,
    workplaceType: 'hybrid',
    createdAt,
  };
}

/** Ashby: the whole board in `jobs`, with `publishedAt` and both description forms. */
export function ashbyJob(id: string, title: string, location: string, isListed = true) {
  return {
    id,
    title,
    location,
    secondaryLocations: [],
    department: 'Operations',
    team: 'Customer Success',
    isListed,
    isRemote: false,
    descriptionHtml: '<p>Lead our customer success team.</p>',
    descriptionPlain: 'Lead our customer success team.',
    publishedAt: '2026-11-15T08:30:00.000+00:00',
    employmentType: 'FullTime',
    address: { postalAddress: { addressLocality: 'Berlin', addressCountry: 'Germany' } },
    jobUrl: `https://jobs.ashbyhq.com/gamma/${id}`,
    applyUrl: `https://jobs.ashbyhq.com/gamma/${id}/application`,
  };
}

export const ashbyBoard = (jobs: unknown[]) => ({ apiVersion: '1', jobs });
