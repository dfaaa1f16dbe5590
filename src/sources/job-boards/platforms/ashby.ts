import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { payOf, placeOf, workplaceOf, type Workplace } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Ashby public Job Posting API, `GET /posting-api/job-board/{name}?includeCompensation=true`: the
// whole board in one answer. `isRemote` and `workplaceType` (`OnSite`, `Remote`, `Hybrid`) say where
// the work is, `secondaryLocations` the posting's other places; `compensation` is there when asked
// for and the company shows pay on its postings.
const component = z.object({
  compensationType: z.string().nullish(),
  interval: z.string().nullish(),
  currencyCode: z.string().nullish(),
  minValue: z.number().nullish(),
  maxValue: z.number().nullish(),
});
const document = z.object({
  jobs: z.array(
    z.object({
      id: z.string().min(1),
      title: z.string(),
      location: z.string().nullish(),
      secondaryLocations: z.array(z.object({ location: z.string().nullish() }).nullish()).nullish(),
      isRemote: z.boolean().nullish(),
      workplaceType: z.string().nullish(),
      shouldDisplayCompensationOnJobPostings: z.boolean().nullish(),
      compensation: z
        .object({
          compensationTierSummary: z.string().nullish(),
          summaryComponents: z.array(component.nullish()).nullish(),
        })
        .nullish(),
      isListed: z.boolean().nullish(),
      descriptionPlain: z.string().nullish(),
      descriptionHtml: z.string().nullish(),
      publishedAt: z.string().nullish(),
      jobUrl: z.string(),
      department: z.string().nullish(),
    }),
  ),
});

export const ashby: JobBoardPlatform = {
  ats: 'ashby',
  name: 'Ashby',
  boardUrl: (name) =>
    `https://api.ashbyhq.com/posting-api/job-board/${encodeURIComponent(name)}?includeCompensation=true`,
  parse(body) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    return {
      postings: parsed.data.jobs
        // An unlisted posting is reachable by link only: the company does not announce it.
        .filter((job) => job.isListed !== false)
        .map((job) => ({
          jobId: job.id,
          url: job.jobUrl,
          title: job.title.trim(),
          location: placeOf(ashbyWorkplace(job.workplaceType, job.isRemote), [
            job.location,
            ...(job.secondaryLocations ?? []).map((place) => place?.location),
          ]),
          description: job.descriptionPlain?.trim() || plainTextOf(job.descriptionHtml ?? ''),
          statedDate: job.publishedAt ?? '',
          publishedDay: dayOf(job.publishedAt),
          department: job.department?.trim() || undefined,
          ...ashbyPay(job.shouldDisplayCompensationOnJobPostings, job.compensation),
        })),
    };
  },
};

/** `workplaceType` when stated, else `isRemote`. */
function ashbyWorkplace(type: string | null | undefined, isRemote: boolean | null | undefined): Workplace {
  return workplaceOf(type) ?? (isRemote ? 'remote' : null);
}

/** The salary component of the summary, else Ashby's own summary line; none when the company hides pay. */
function ashbyPay(
  shown: boolean | null | undefined,
  compensation:
    | {
        compensationTierSummary?: string | null;
        summaryComponents?: (z.infer<typeof component> | null | undefined)[] | null;
      }
    | null
    | undefined,
): { pay?: string } {
  if (shown === false || !compensation) return {};
  const salary = compensation.summaryComponents?.find((part) => /salary/i.test(part?.compensationType ?? ''));
  const pay =
    payOf(
      salary && {
        min: salary.minValue,
        max: salary.maxValue,
        currency: salary.currencyCode,
        interval: salary.interval,
      },
    ) || compensation.compensationTierSummary?.trim();
  return pay ? { pay } : {};
}
