import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { payOf, placeOf, workplaceOf } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Lever Postings API, `GET /v0/postings/{site}?mode=json`: an array of published postings
// (github.com/lever/postings-api). `lists` are the posting's sections of what the job asks for
// and offers, each a heading (`text`) and HTML list items (`content`); `workplaceType` is
// `onsite`, `remote`, `hybrid` or `unspecified`; `salaryRange` a stated pay range.
const document = z.array(
  z.object({
    id: z.string().min(1),
    text: z.string(),
    hostedUrl: z.string(),
    categories: z
      .object({
        location: z.string().nullish(),
        allLocations: z.array(z.string().nullish()).nullish(),
        department: z.string().nullish(),
        team: z.string().nullish(),
      })
      .partial()
      .nullish(),
    descriptionPlain: z.string().nullish(),
    description: z.string().nullish(),
    lists: z.array(z.object({ text: z.string().nullish(), content: z.string().nullish() }).nullish()).nullish(),
    additionalPlain: z.string().nullish(),
    additional: z.string().nullish(),
    workplaceType: z.string().nullish(),
    salaryRange: z
      .object({
        min: z.number().nullish(),
        max: z.number().nullish(),
        currency: z.string().nullish(),
        interval: z.string().nullish(),
      })
      .nullish(),
    salaryDescriptionPlain: z.string().nullish(),
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
        const sections = (posting.lists ?? []).map((list) => {
          const items = plainTextOf(list?.content ?? '');
          const heading = list?.text?.trim() ?? '';
          return items && heading ? `${heading}\n${items}` : items || heading;
        });
        const created = posting.createdAt ? new Date(posting.createdAt).toISOString() : '';
        const categories = posting.categories;
        const pay = payOf(posting.salaryRange) || posting.salaryDescriptionPlain?.trim() || '';
        return {
          jobId: posting.id,
          url: posting.hostedUrl,
          title: posting.text.trim(),
          location: placeOf(workplaceOf(posting.workplaceType), [
            categories?.location,
            ...(categories?.allLocations ?? []),
          ]),
          description: [description, ...sections, posting.additionalPlain ?? plainTextOf(posting.additional ?? '')]
            .map((s) => s.trim())
            .filter(Boolean)
            .join('\n\n'),
          statedDate: created,
          publishedDay: dayOf(created),
          department: categories?.department?.trim() || categories?.team?.trim() || undefined,
          ...(pay ? { pay } : {}),
        };
      }),
    };
  },
};
