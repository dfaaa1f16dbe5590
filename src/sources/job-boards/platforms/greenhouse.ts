import { z } from 'zod';
import { plainTextOf, decodeEntities } from '../../kit/plain-text';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Greenhouse Job Board API, `GET /v1/boards/{token}/jobs?content=true`: `content` is HTML, itself HTML-escaped.
const document = z.object({
  jobs: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      updated_at: z.string().nullish(),
      first_published: z.string().nullish(),
      absolute_url: z.string(),
      location: z.object({ name: z.string().nullish() }).nullish(),
      content: z.string().nullish(),
      departments: z.array(z.object({ name: z.string().nullish() })).nullish(),
    }),
  ),
});

export const greenhouse: JobBoardPlatform = {
  ats: 'greenhouse',
  name: 'Greenhouse',
  boardUrl: (token) => `https://boards-api.greenhouse.io/v1/boards/${encodeURIComponent(token)}/jobs?content=true`,
  parse(body) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    return {
      postings: parsed.data.jobs.map((job) => {
        // Boards that expose `first_published` state when the posting went up; the others only when it last changed.
        const stated = job.first_published ?? job.updated_at ?? '';
        return {
          jobId: String(job.id),
          url: job.absolute_url,
          title: job.title.trim(),
          location: job.location?.name?.trim() ?? '',
          description: plainTextOf(decodeEntities(job.content ?? '')),
          statedDate: stated,
          publishedDay: dayOf(stated),
          department: job.departments?.[0]?.name?.trim() || undefined,
        };
      }),
    };
  },
};
