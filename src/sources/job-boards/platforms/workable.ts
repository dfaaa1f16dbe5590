import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { placeOf } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Workable's public widget API, `GET /api/v1/widget/accounts/{account}?details=true`: the whole
// board in one answer, `description` (HTML) only with `details=true`. `published_on` is a day.
const document = z.object({
  name: z.string().nullish(),
  jobs: z.array(
    z.object({
      title: z.string(),
      shortcode: z.string().min(1),
      department: z.string().nullish(),
      url: z.string(),
      published_on: z.string().nullish(),
      created_at: z.string().nullish(),
      city: z.string().nullish(),
      state: z.string().nullish(),
      country: z.string().nullish(),
      telecommuting: z.boolean().nullish(),
      // Every place of the job, the first being city, state and country above; hidden ones are not shown.
      locations: z
        .array(
          z
            .object({
              city: z.string().nullish(),
              region: z.string().nullish(),
              country: z.string().nullish(),
              hidden: z.boolean().nullish(),
            })
            .nullish(),
        )
        .nullish(),
      description: z.string().nullish(),
    }),
  ),
});

export const workable: JobBoardPlatform = {
  ats: 'workable',
  name: 'Workable',
  boardUrl: (account) =>
    `https://apply.workable.com/api/v1/widget/accounts/${encodeURIComponent(account)}?details=true`,
  parse(body) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    return {
      postings: parsed.data.jobs.map((job) => {
        const stated = job.published_on ?? job.created_at ?? '';
        const place = [job.city, job.state, job.country].map((part) => part?.trim()).filter(Boolean);
        // `telecommuting` is Workable's remote flag: "Remote, Paris, France" when the job also has a place.
        const others = (job.locations ?? [])
          .filter((other) => other && !other.hidden)
          .map((other) =>
            [other?.city, other?.region, other?.country]
              .map((part) => part?.trim())
              .filter(Boolean)
              .join(', '),
          );
        const location = placeOf(job.telecommuting ? 'remote' : null, [place.join(', '), ...others]);
        return {
          jobId: job.shortcode,
          url: job.url,
          title: job.title.trim(),
          location,
          description: plainTextOf(job.description ?? ''),
          statedDate: stated,
          publishedDay: dayOf(stated),
          department: job.department?.trim() || undefined,
        };
      }),
    };
  },
};
