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

/**
 * Workable widget API (`/api/v1/widget/accounts/{account}?details=true`): the account and its
 * published jobs; `published_on` and `created_at` are days, `description` HTML (with details=true).
 */
export function workableJob(shortcode: string, title: string, city: string, publishedOn = '2026-11-19') {
  return {
    title,
    shortcode,
    code: '',
    employment_type: 'Full-time',
    telecommuting: false,
    department: 'Engineering',
    url: `https://apply.workable.com/j/${shortcode}`,
    shortlink: `https://apply.workable.com/j/${shortcode}`,
    application_url: `https://apply.workable.com/j/${shortcode}/apply`,
    published_on: publishedOn,
    created_at: '2026-11-18',
    country: 'France',
    city,
    state: 'Île-de-France',
    education: '',
    experience: 'Mid-Senior level',
    function: 'Engineering',
    industry: 'Computer Software',
    locations: [{ country: 'France', countryCode: 'FR', city, region: 'Île-de-France', hidden: false }],
    description: '<p>Build our <strong>billing</strong> services.</p><ul><li>Go</li><li>Kafka</li></ul>',
  };
}

export const workableAccount = (jobs: unknown[]) => ({
  name: 'Epsilon',
  description: '<p>We make invoices pleasant.</p>',
  jobs,
});

/**
 * SmartRecruiters Posting API list (`/v1/companies/{companyIdentifier}/postings`): a page of
 * `content` with `offset`, `limit` and `totalFound`; no job ad (the posting's own `ref` has it).
 */
export function smartRecruitersPosting(
  id: string,
  name: string,
  city: string,
  releasedDate = '2026-11-21T14:03:11.000Z',
) {
  return {
    id,
    name,
    uuid: `0b7a${id.padStart(4, '0')}-1111-4222-8333-444455556666`,
    jobAdId: `ad-${id}`,
    defaultJobAd: true,
    refNumber: `REF${id}`,
    company: { identifier: 'Zeta', name: 'Zeta Group' },
    releasedDate,
    location: { city, region: 'Catalonia', country: 'es', remote: false, latitude: '41.38', longitude: '2.17' },
    industry: { id: 'computer_software', label: 'Computer Software' },
    department: { id: '2631', label: 'Marketing' },
    function: { id: 'marketing', label: 'Marketing' },
    typeOfEmployment: { id: 'permanent', label: 'Full-time' },
    experienceLevel: { id: 'mid_senior_level', label: 'Mid-Senior Level' },
    customField: [],
    ref: `https://api.smartrecruiters.com/v1/companies/Zeta/postings/${id}`,
    creator: { name: 'Ana Ruiz' },
    language: { code: 'en', label: 'English', labelNative: 'English (US)' },
  };
}

export const smartRecruitersPage = (offset: number, totalFound: number, content: unknown[]) => ({
  offset,
  limit: 100,
  totalFound,
  content,
});

/** SmartRecruiters posting detail (`.../postings/{postingId}`): the list's fields, the job ad's sections and the public page. */
export function smartRecruitersDetail(posting: ReturnType<typeof smartRecruitersPosting>) {
  return {
    ...posting,
    active: true,
    visibility: 'PUBLIC',
    postingUrl: `https://jobs.smartrecruiters.com/Zeta/${posting.id}-${posting.name.toLowerCase().replace(/\W+/g, '-')}`,
    applyUrl: `https://jobs.smartrecruiters.com/Zeta/${posting.id}-apply`,
    jobAd: {
      sections: {
        companyDescription: { title: 'Company Description', text: '<p>Zeta runs marketplaces.</p>' },
        jobDescription: { title: 'Job Description', text: '<p>Own our <b>demand generation</b>.</p>' },
        qualifications: { title: 'Qualifications', text: '<ul><li>5 years of B2B marketing</li></ul>' },
        additionalInformation: { title: 'Additional Information', text: '' },
      },
    },
  };
}

/**
 * Recruitee Careers Site API (`https://{company}.recruitee.com/api/offers/`): published offers,
 * `description` and `requirements` HTML, `published_at` in Recruitee's `YYYY-MM-DD hh:mm:ss UTC`.
 */
export function recruiteeOffer(id: number, title: string, city: string, publishedAt = '2026-11-17 08:15:00 UTC') {
  return {
    id,
    slug: title.toLowerCase().replace(/\W+/g, '-'),
    title,
    status: 'published',
    position: 1,
    description: '<p>Help our customers get the most out of the product.</p>',
    requirements: '<ul><li>Dutch and English</li></ul>',
    location: `${city}, Netherlands`,
    city,
    country: 'Netherlands',
    country_code: 'NL',
    remote: false,
    hybrid: true,
    department: 'Customer Success',
    employment_type_code: 'fulltime',
    careers_url: `https://eta.recruitee.com/o/${id}`,
    careers_apply_url: `https://eta.recruitee.com/o/${id}/c/new`,
    company_name: 'Eta BV',
    created_at: '2026-11-16 17:00:00 UTC',
    published_at: publishedAt,
    updated_at: '2026-11-17 08:15:00 UTC',
    tags: [],
  };
}

export const recruiteeOffers = (offers: unknown[]) => ({ offers });

/**
 * Personio XML feed (`https://{company}.jobs.personio.de/xml`): `<workzag-jobs>` with one
 * `<position>` per job, its sections as CDATA HTML, `createdAt` an ISO timestamp.
 */
export function personioPosition(id: string, name: string, office: string, createdAt = '2026-11-14T09:40:07+00:00') {
  return `  <position>
    <id>${id}</id>
    <subcompany>Theta GmbH</subcompany>
    <office>${office}</office>
    <additionalOffices><office>${office} (Remote)</office></additionalOffices>
    <department>Finance</department>
    <recruitingCategory>Theta Finance</recruitingCategory>
    <name>${name}</name>
    <jobDescriptions>
      <jobDescription>
        <name>Your tasks</name>
        <value><![CDATA[<p>Close the books &amp; run payroll.</p>]]></value>
      </jobDescription>
      <jobDescription>
        <name>Your profile</name>
        <value><![CDATA[<ul><li>DATEV</li><li>German</li></ul>]]></value>
      </jobDescription>
    </jobDescriptions>
    <employmentType>permanent</employmentType>
    <seniority>experienced</seniority>
    <schedule>full-time</schedule>
    <yearsOfExperience>3-5</yearsOfExperience>
    <occupation>accounting</occupation>
    <occupationCategory>finance</occupationCategory>
    <createdAt>${createdAt}</createdAt>
  </position>`;
}

export const personioFeed = (positions: string[]) =>
  `<?xml version="1.0" encoding="UTF-8"?>\n<workzag-jobs>\n${positions.join('\n')}\n</workzag-jobs>\n`;
