import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readSitePage, type SitePage } from '../../src/sources/kit/site-page';
import { boardLinkOf, boardsOf } from '../../src/sources/company-profiles/job-board-links';
import { TECH_FINGERPRINTS, technologiesOf } from '../../src/sources/company-profiles/tech-fingerprints';
import { findTechnographicTool } from '../../src/catalogue/technographics';
import { careersLinkOf, factsOf } from '../../src/sources/company-profiles/site-profile';
import { homepage, snippets } from './site-fixtures';

const read = (html: string, url = 'https://acme.com/'): SitePage => {
  const page = readSitePage(html, url);
  if ('problem' in page) throw new Error(page.problem);
  return page;
};

test('a homepage gives its title, descriptions, feeds, links and scripts, every URL absolute', () => {
  const page = read(
    homepage({
      title: '  Acme &amp; Co —\n the data platform ',
      description: 'Acme builds pipelines',
      ogDescription: 'Pipelines for every team',
      feeds: [
        { href: '/blog/rss.xml', type: 'application/rss+xml', title: 'Blog' },
        { href: 'https://acme.com/news/atom', type: 'application/atom+xml', title: 'News' },
      ],
      head: [snippets.hubspot],
      links: [{ href: '/careers', text: 'Careers' }],
    }),
  );
  expect(page).toMatchObject({
    title: 'Acme & Co — the data platform',
    metaDescription: 'Acme builds pipelines',
    shareDescription: 'Pipelines for every team',
    feedUrls: ['https://acme.com/blog/rss.xml', 'https://acme.com/news/atom'],
    anchors: [{ url: 'https://acme.com/careers', text: 'Careers' }],
    scriptUrls: ['https://js.hs-scripts.com/4417263.js'],
  });
  expect(factsOf(page, 'https://acme.com/', 'acme.com').description).toBe('Pipelines for every team');
});

test('a body that is not HTML is a problem, not an empty profile', () => {
  expect(readSitePage('{"status": "ok"}', 'https://acme.com/')).toEqual({ problem: 'the answer is not an HTML page' });
  expect(readSitePage('%PDF-1.7\u0000\u0001<binary>', 'https://acme.com/')).toEqual({
    problem: 'the answer is not an HTML page',
  });
  // Unclosed markup is read as browsers read it.
  expect(read('<title>Half</title><p><a href="/jobs">Jobs').anchors).toEqual([
    { url: 'https://acme.com/jobs', text: 'Jobs' },
  ]);
});

test('each vendor snippet shows its technology; links to a vendor and words on the page do not', () => {
  const page = read(
    homepage({
      title: 'Acme',
      head: [
        snippets.googleTag,
        snippets.tagManager,
        snippets.segment,
        snippets.hubspot,
        snippets.intercom,
        snippets.stripe,
        snippets.linkedIn,
        snippets.metaPixel,
        snippets.hotjar,
        snippets.nextJs,
        snippets.wordpress,
      ],
    }),
  );
  expect(technologiesOf(page)).toEqual([
    'Google Analytics',
    'Google Tag Manager',
    'Segment',
    'Hotjar',
    'HubSpot Marketing Hub',
    'LinkedIn Ads',
    'Meta Ads',
    'Intercom',
    'Stripe',
    'WordPress',
    'Next.js',
    'React',
  ]);
  const plain = read(
    homepage({
      title: 'We love Stripe, HubSpot and Intercom',
      links: [
        { href: 'https://www.facebook.com/acme', text: 'Facebook' },
        { href: 'https://stripe.com/customers/acme', text: 'Our Stripe story' },
      ],
    }),
  );
  expect(technologiesOf(plain)).toEqual([]);
});

test('every fingerprint names a catalogue technology in its category, and docs/sources/company-profiles.md lists each', () => {
  const docs = readFileSync(join(__dirname, '../../docs/sources/company-profiles.md'), 'utf8');
  const table = docs.slice(docs.indexOf('## Technologies recognised'));
  for (const tech of TECH_FINGERPRINTS) {
    expect(findTechnographicTool(tech.name)).toEqual({ name: tech.name, category: tech.category });
    expect(table).toContain(`| ${tech.name} |`);
    expect(tech.assets ?? tech.inline ?? tech.generator ?? tech.ats).toBeDefined();
  }
  expect(new Set(TECH_FINGERPRINTS.map((tech) => tech.name)).size).toBe(TECH_FINGERPRINTS.length);
});

test('board links of the seven applicant-tracking systems, in their hosted and embed shapes', () => {
  const cases: [string, { ats: string; token: string } | null][] = [
    ['https://boards.greenhouse.io/acme', { ats: 'greenhouse', token: 'acme' }],
    ['https://job-boards.greenhouse.io/acme/jobs/4012345', { ats: 'greenhouse', token: 'acme' }],
    ['https://job-boards.eu.greenhouse.io/acme-eu', { ats: 'greenhouse', token: 'acme-eu' }],
    ['https://boards.greenhouse.io/embed/job_board?for=acme&b=https://acme.com', { ats: 'greenhouse', token: 'acme' }],
    ['https://boards.greenhouse.io/embed/job_board/js?for=acme', { ats: 'greenhouse', token: 'acme' }],
    ['https://boards-api.greenhouse.io/v1/boards/acme/jobs', { ats: 'greenhouse', token: 'acme' }],
    ['https://jobs.lever.co/acme/5ac21346-8e0c-4494', { ats: 'lever', token: 'acme' }],
    ['https://jobs.eu.lever.co/acme', { ats: 'lever', token: 'acme' }],
    ['https://jobs.ashbyhq.com/Acme%20Labs', null],
    ['https://jobs.ashbyhq.com/acme-labs', { ats: 'ashby', token: 'acme-labs' }],
    ['https://apply.workable.com/acme/', { ats: 'workable', token: 'acme' }],
    ['https://apply.workable.com/acme/j/9A1B2C3D4E/', { ats: 'workable', token: 'acme' }],
    ['https://apply.workable.com/j/9A1B2C3D4E', null],
    ['https://acme.workable.com/', { ats: 'workable', token: 'acme' }],
    ['https://www.workable.com/pricing', null],
    ['https://jobs.smartrecruiters.com/AcmeInc/743999912345678', { ats: 'smartrecruiters', token: 'AcmeInc' }],
    ['https://careers.smartrecruiters.com/AcmeInc', { ats: 'smartrecruiters', token: 'AcmeInc' }],
    ['https://acme.recruitee.com/o/data-engineer', { ats: 'recruitee', token: 'acme' }],
    ['https://www.recruitee.com/', null],
    ['https://acme.jobs.personio.de/job/1234', { ats: 'personio', token: 'acme' }],
    ['https://acme-gmbh.jobs.personio.com/', { ats: 'personio', token: 'acme-gmbh' }],
    ['https://www.greenhouse.com/', null],
    ['https://acme.com/careers', null],
  ];
  for (const [url, board] of cases) expect([url, boardLinkOf(url)]).toEqual([url, board]);
});

test('a page names its board in links, iframes, script sources and inline embed code; each board once', () => {
  const page = read(`<html><head><title>Careers</title>
    <script>var Grnhse = Grnhse || {}; Grnhse.Settings = { boardURI: 'https://boards.greenhouse.io/embed/job_board?for=acme-inline' };</script>
    </head><body>
    <a href="https://jobs.lever.co/acme">All jobs</a>
    <iframe src="https://jobs.ashbyhq.com/acme/embed"></iframe>
    <a href="https://jobs.lever.co/acme/123">Engineer</a>
    ${snippets.greenhouseEmbed('acme-script')}
    </body></html>`);
  expect(boardsOf(page)).toEqual([
    { ats: 'lever', token: 'acme' },
    { ats: 'ashby', token: 'acme' },
    { ats: 'greenhouse', token: 'acme-script' },
    { ats: 'greenhouse', token: 'acme-inline' },
  ]);
  expect(technologiesOf(page, ['lever', 'ashby', 'greenhouse'])).toEqual(['Greenhouse', 'Lever', 'Ashby']);
});

test('the careers link: same site only (subdomains count), its path before its words, never the page itself', () => {
  const links = (anchors: { href: string; text: string }[]) => read(homepage({ title: 'Acme', links: anchors }));
  const careers = (page: SitePage) => careersLinkOf(page, 'https://acme.com/', 'acme.com');
  expect(
    careers(
      links([
        { href: '/about', text: 'Join our mission' },
        { href: 'https://other.com/careers', text: 'Careers' },
        { href: '/team', text: "We're hiring!" },
        { href: 'https://careers.acme.com/', text: 'Work here' },
      ]),
    ),
  ).toBe('https://careers.acme.com/');
  expect(careers(links([{ href: '/team#open', text: "We're hiring!" }]))).toBe('https://acme.com/team');
  expect(careers(links([{ href: '/company/jobs', text: 'Open roles' }]))).toBe('https://acme.com/company/jobs');
  expect(careers(links([{ href: 'https://boards.greenhouse.io/acme', text: 'Careers' }]))).toBeNull();
  expect(careers(links([{ href: '/#careers', text: 'Careers' }]))).toBeNull();
  expect(careers(links([{ href: '/products/job-scheduler', text: 'Scheduler' }]))).toBeNull();
});
