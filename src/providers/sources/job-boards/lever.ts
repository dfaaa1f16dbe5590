import { z } from 'zod';
import { plainTextOf } from '../plain-text';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Lever Postings API, `GET /v0/postings/{site}?mode=json`: an array of published postings.
const document = z.array(
  z.object({
    id: z.string().min(1),
    text: z.string(),
    hostedUrl: z.string(),
    categories: z
      .object({ location: z.string().nullish(), department: z.string().nullish(), team: z.string().nullish() })
      .partial()
      .nullish(),
    descriptionPlain: z.string().nullish(),
    description: z.string().nullish(),
    additionalPlain: z.string().nullish(),
    createdAt: z.number().nullish(),
  }),
);

export const lever: JobBoardPlatform = {
  ats: 'lever',
  name: 'Lever',
  boardUrl: (site) => `https://api.lever.co/v0/postings/${encodeURIComponent(site)}?mode=json`,
  parse(body) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    return {
      postings: parsed.data.map((posting) => {
        const description = posting.descriptionPlain ?? plainTextOf(posting.description ?? '');
        const created = posting.createdAt ? new Date(posting.createdAt).toISOString() : '';
        return {
          jobId: posting.id,
          url: posting.hostedUrl,
          title: posting.text.trim(),
          location: posting.categories?.location?.trim() ?? '',
          description: [description, posting.additionalPlain ?? '']
            .map((s) => s.trim())
            .filter(Boolean)
            .join('\n\n'),
          statedDate: created,
          publishedDay: dayOf(created),
          department: posting.categories?.department?.trim() || posting.categories?.team?.trim() || undefined,
        };
      }),
    };
  },
};
