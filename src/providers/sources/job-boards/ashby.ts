import { z } from 'zod';
import { plainTextOf } from '../plain-text';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Ashby public Job Posting API, `GET /posting-api/job-board/{name}`: the whole board in one answer.
const document = z.object({
  jobs: z.array(
    z.object({
      id: z.string().min(1),
      title: z.string(),
      location: z.string().nullish(),
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
  boardUrl: (name) => `https://api.ashbyhq.com/posting-api/job-board/${encodeURIComponent(name)}`,
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
          location: job.location?.trim() ?? '',
          description: job.descriptionPlain?.trim() || plainTextOf(job.descriptionHtml ?? ''),
          statedDate: job.publishedAt ?? '',
          publishedDay: dayOf(job.publishedAt),
          department: job.department?.trim() || undefined,
        })),
    };
  },
};
