import { z } from 'zod';
import { plainTextOf } from '../plain-text';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Recruitee Careers Site API, `GET https://{company}.recruitee.com/api/offers/`: the published
// offers in one answer, `description` and `requirements` as HTML, `published_at` a UTC timestamp.
const document = z.object({
  offers: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      status: z.string().nullish(),
      description: z.string().nullish(),
      requirements: z.string().nullish(),
      location: z.string().nullish(),
      city: z.string().nullish(),
      country: z.string().nullish(),
      department: z.string().nullish(),
      careers_url: z.string(),
      published_at: z.string().nullish(),
      created_at: z.string().nullish(),
    }),
  ),
});

export const recruitee: JobBoardPlatform = {
  ats: 'recruitee',
  name: 'Recruitee',
  boardUrl: (company) => `https://${encodeURIComponent(company)}.recruitee.com/api/offers/`,
  parse(body) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    return {
      postings: parsed.data.offers
        // The careers site lists published offers; anything else is not announced.
        .filter((offer) => !offer.status || offer.status === 'published')
        .map((offer) => {
          const stated = offer.published_at ?? offer.created_at ?? '';
          return {
            jobId: String(offer.id),
            url: offer.careers_url,
            title: offer.title.trim(),
            location:
              offer.location?.trim() ||
              [offer.city, offer.country]
                .map((part) => part?.trim())
                .filter(Boolean)
                .join(', '),
            description: [plainTextOf(offer.description ?? ''), plainTextOf(offer.requirements ?? '')]
              .filter(Boolean)
              .join('\n\n'),
            statedDate: stated,
            publishedDay: dayOf(stated),
            department: offer.department?.trim() || undefined,
          };
        }),
    };
  },
};
