import { z } from 'zod';
import type { Services } from '../../src/services';
import { notFound } from '../../src/errors';
import { errorEnvelope } from '../schemas/common';
import { defineRoute } from '../route';
import { JOB_BOARD_ATS } from '../../src/sources/job-boards/platforms';
import { MAX_FEEDS_PER_COMPANY } from '../../src/sources/news/company-feeds';
import { blueskyHandle } from '../../src/services/competitors';

const admin = { kind: 'admin' } as const;
const tags = ['operator'];
const errors = {
  401: { description: 'Missing or wrong admin token', schema: errorEnvelope },
  404: { description: 'Unknown source', schema: errorEnvelope },
};

const sourceStatus = z.object({
  name: z.string(),
  enabled: z.boolean(),
  off: z
    .string()
    .nullable()
    .meta({ description: 'Why the source does nothing though enabled (e.g. "off: no API key"), else null' }),
  running: z.boolean().meta({ description: 'A run started and has not finished (or was killed and resumes next run)' }),
  lastRunStartedAt: z.string().nullable(),
  lastRunFinishedAt: z.string().nullable(),
  nextRunAt: z.string().nullable().meta({
    description: "From the source's Temporal Schedule; null while disabled or while Temporal does not answer",
  }),
  recordsIngested: z.number(),
  recordsDropped: z
    .number()
    .meta({ description: "Read and left out by the source's rules (news: not about the company, no kind)" }),
  errors: z.number(),
  lastError: z.string().nullable(),
  lastErrorAt: z.string().nullable(),
  detail: z
    .string()
    .nullable()
    .meta({ description: "The source's own line: off and why, what its last release cost (people-data-labs)" }),
  parked: z.array(z.object({ item: z.string(), reason: z.string(), parkedAt: z.string() })).meta({
    description: 'Items a worker died on twice (parked with the reason): runs skip them until unparked or backfilled',
  }),
});
const nameParam = z.object({ name: z.string().min(1).max(100) });

export const unparkBody = z.strictObject({
  item: z
    .string()
    .min(1)
    .max(500)
    .optional()
    .meta({ description: "The parked item (as the source's status names it); without it every parked item" }),
});

export const jobBoardBody = z.strictObject({
  ats: z
    .enum(JOB_BOARD_ATS as [string, ...string[]], {
      error: `must be one of ${JOB_BOARD_ATS.map((a) => `"${a}"`).join(', ')}`,
    })
    .meta({ description: 'The platform the board is on' }),
  token: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9._-]+$/, 'must be the board token of the hosted careers page, e.g. "acme"'),
});

export const companyFeedsBody = z.strictObject({
  urls: z
    .array(z.string().trim().min(1).max(2000))
    .min(1)
    .max(MAX_FEEDS_PER_COMPANY)
    .meta({ description: "The company's own RSS or Atom feeds (blog, newsroom)" }),
});

const companySite = z.object({
  companyId: z.string(),
  homeUrl: z.string().nullable(),
  careersUrl: z.string().nullable(),
  fetchedAt: z.string(),
  outcome: z.enum(['profiled', 'problem', 'disallowed']),
  profiledAt: z.string().nullable(),
  homepageTitle: z.string().nullable(),
  metaDescription: z.string().nullable(),
  description: z.string().nullable(),
  techStack: z.array(z.string()),
  feedUrls: z.array(z.string()),
  ats: z.string().nullable(),
  boardToken: z.string().nullable(),
  lastProblem: z.string().nullable(),
  provenance: z.enum(['trusted', 'claimed']).meta({
    description:
      'claimed: known only through watchlist entries, so it reaches only their accounts (docs/decisions/claims.md)',
  }),
  claims: z
    .array(z.object({ accountId: z.string(), claimedName: z.string().nullable(), claimedAt: z.string() }))
    .meta({ description: 'The accounts that claimed the company, and the name each gave it' }),
});

export const pdlPersonBody = z.strictObject({
  pdlId: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be a PDL person id such as "qEnOZ5Oh0poWnQ1luFBfVw_0000"'),
});

export const blueskyHandleBody = z.strictObject({
  handle: blueskyHandle.nullable().meta({
    description: "The company's Bluesky handle (acme.com, acme.bsky.social); null to look for it again from its domain",
  }),
});

const refusedRun = {
  description: 'The source is disabled (SOURCE_DISABLED) or off (SOURCE_OFF, e.g. no API key): nothing runs',
  schema: errorEnvelope,
};
/** A button on one source: the route runs `run` with the source's name and answers the source. */
const sourceAction = (verb: string, summary: string, run: (name: string) => Promise<unknown>, refusable = false) =>
  defineRoute({
    method: 'post',
    path: `/admin/v1/sources/{name}/${verb}`,
    operationId: `adminSource${verb[0]!.toUpperCase()}${verb.slice(1)}`,
    summary,
    tags,
    access: admin,
    params: nameParam,
    responses: refusable
      ? { 200: { description: 'The source now', schema: sourceStatus }, ...errors, 409: refusedRun }
      : { 200: { description: 'The source now', schema: sourceStatus }, ...errors },
    handle: ({ params }) => run(params.name),
  });

const runSourceRoute = ({ sources }: Pick<Services, 'sources'>) =>
  sourceAction('run', 'Run the source now (through its schedule)', (name) => sources.runNow(name), true);
const enableSourceRoute = ({ sources }: Pick<Services, 'sources'>) =>
  sourceAction('enable', 'Enable the source and unpause its schedule', (name) => sources.setEnabled(name, true));
const disableSourceRoute = ({ sources }: Pick<Services, 'sources'>) =>
  sourceAction('disable', 'Disable the source and pause its schedule', (name) => sources.setEnabled(name, false));
const backfillSourceRoute = ({ sources }: Pick<Services, 'sources'>) =>
  sourceAction(
    'backfill',
    'Forget the cursor of an unfinished run and run from the first item',
    (name) => sources.backfill(name),
    true,
  );

const adminListSourcesRoute = ({ sources }: Pick<Services, 'sources'>) =>
  defineRoute({
    method: 'get',
    path: '/admin/v1/sources',
    operationId: 'adminListSources',
    summary: 'The intent sources: enabled, last and next run, records and errors',
    tags,
    access: admin,
    responses: {
      200: {
        description: 'Every source',
        schema: z.object({
          items: z.array(sourceStatus),
          data: z.array(sourceStatus).meta({
            deprecated: true,
            description: 'The same list as `items`, kept for clients of the first release',
          }),
        }),
      },
      ...errors,
    },
    handle: async () => {
      // `items`, as every list of the public API; `data` stays for the clients that read it (docs/decisions/api-and-errors.md).
      const items = await sources.list();
      return { items, data: items };
    },
  });

const adminSourceUnparkRoute = ({ sources }: Pick<Services, 'sources'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/sources/{name}/unpark',
    operationId: 'adminSourceUnpark',
    summary: 'Try a parked item (or every parked item) again at the next run',
    tags,
    access: admin,
    params: nameParam,
    body: unparkBody,
    responses: {
      200: { description: 'The source now', schema: sourceStatus },
      401: errors[401],
      404: { description: 'Unknown source, or no such parked item', schema: errorEnvelope },
      422: { description: 'Invalid body', schema: errorEnvelope },
    },
    handle: ({ params, body }) => sources.unpark(params.name, body.item),
  });

const adminSetCompanyJobBoardRoute = ({ jobBoards }: Pick<Services, 'jobBoards'>) =>
  defineRoute({
    method: 'put',
    path: '/admin/v1/companies/{companyId}/job-board',
    operationId: 'adminSetCompanyJobBoard',
    summary: 'Link a stored company to its public job board, which the job-boards source then polls',
    tags,
    access: admin,
    params: z.object({ companyId: z.string().min(1).max(200) }),
    body: jobBoardBody,
    responses: {
      200: {
        description: 'Linked',
        schema: z.object({ companyId: z.string(), ats: z.string(), token: z.string() }),
      },
      401: errors[401],
      404: { description: 'Unknown company', schema: errorEnvelope },
      422: { description: 'Invalid body or unknown platform', schema: errorEnvelope },
    },
    handle: ({ params, body }) => jobBoards.link({ companyId: params.companyId, ...body }),
  });

const adminSetCompanyBlueskyHandleRoute = ({ bluesky }: Pick<Services, 'bluesky'>) =>
  defineRoute({
    method: 'put',
    path: '/admin/v1/companies/{companyId}/bluesky-handle',
    operationId: 'adminSetCompanyBlueskyHandle',
    summary: "Set a stored company's Bluesky handle, which the bluesky source then reads (else found from its domain)",
    tags,
    access: admin,
    params: z.object({ companyId: z.string().min(1).max(200) }),
    body: blueskyHandleBody,
    responses: {
      200: {
        description: 'Set',
        schema: z.object({ companyId: z.string(), handle: z.string().nullable() }),
      },
      401: errors[401],
      404: { description: 'Unknown company', schema: errorEnvelope },
      422: { description: 'Not a handle', schema: errorEnvelope },
    },
    handle: async ({ params, body }) => {
      await bluesky.setCompanyHandle(params.companyId, body.handle);
      return { companyId: params.companyId, handle: body.handle };
    },
  });

const adminAddCompanyFeedsRoute = ({ companyFeeds }: Pick<Services, 'companyFeeds'>) =>
  defineRoute({
    method: 'post',
    path: '/admin/v1/companies/{companyId}/feeds',
    operationId: 'adminAddCompanyFeeds',
    summary: "Add a stored company's own RSS or Atom feeds, which the news source then reads",
    tags,
    access: admin,
    params: z.object({ companyId: z.string().min(1).max(200) }),
    body: companyFeedsBody,
    responses: {
      200: {
        description: "The company's feeds now (at most 5; known ones change nothing)",
        schema: z.object({ companyId: z.string(), feeds: z.array(z.string()) }),
      },
      401: errors[401],
      404: { description: 'Unknown company', schema: errorEnvelope },
      422: { description: 'Invalid body or a URL that is not http(s)', schema: errorEnvelope },
    },
    handle: async ({ params, body }) => ({
      companyId: params.companyId,
      feeds: await companyFeeds.add(params.companyId, body.urls),
    }),
  });

const adminTrackPersonInPeopleDataLabsRoute = ({ peopleDataLabs }: Pick<Services, 'peopleDataLabs'>) =>
  defineRoute({
    method: 'put',
    path: '/admin/v1/people/{personId}/people-data-labs',
    operationId: 'adminTrackPersonInPeopleDataLabs',
    summary:
      'Track a stored person under their People Data Labs id: the people-data-labs source diffs their job at each release',
    tags,
    access: admin,
    params: z.object({ personId: z.string().min(1).max(200) }),
    body: pdlPersonBody,
    responses: {
      200: { description: 'Tracked', schema: z.object({ personId: z.string(), pdlId: z.string() }) },
      401: errors[401],
      404: { description: 'Unknown person', schema: errorEnvelope },
      409: { description: 'The PDL id opted out: it is never tracked again', schema: errorEnvelope },
      422: { description: 'Invalid body', schema: errorEnvelope },
    },
    handle: async ({ params, body }) => {
      await peopleDataLabs.track(params.personId, body.pdlId);
      return { personId: params.personId, pdlId: body.pdlId };
    },
  });

const adminGetCompanySiteRoute = ({
  companyProfiles,
  companyClaims,
}: Pick<Services, 'companyProfiles' | 'companyClaims'>) =>
  defineRoute({
    method: 'get',
    path: '/admin/v1/companies/{companyId}/site',
    operationId: 'adminGetCompanySite',
    summary: "What the company-profiles source read on a company's site: values, feeds, board, last problem",
    tags,
    access: admin,
    params: z.object({ companyId: z.string().min(1).max(200) }),
    responses: {
      200: { description: 'The site as last read', schema: companySite },
      401: errors[401],
      404: { description: 'The site of that company was never read', schema: errorEnvelope },
    },
    handle: async ({ params }) => {
      const site = await companyProfiles.siteOf(params.companyId);
      if (!site) throw notFound('Company site');
      return { ...site, ...(await companyClaims.provenanceOf(params.companyId)) };
    },
  });

/** The operator's view of the intent sources (docs/sources.md). */
export function adminSourceRoutes(services: Services) {
  return [
    adminListSourcesRoute(services),
    runSourceRoute(services),
    enableSourceRoute(services),
    disableSourceRoute(services),
    backfillSourceRoute(services),
    adminSourceUnparkRoute(services),
    adminSetCompanyJobBoardRoute(services),
    adminSetCompanyBlueskyHandleRoute(services),
    adminAddCompanyFeedsRoute(services),
    adminTrackPersonInPeopleDataLabsRoute(services),
    adminGetCompanySiteRoute(services),
  ];
}
