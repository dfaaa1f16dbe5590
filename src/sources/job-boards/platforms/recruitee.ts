import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { payOf, placeOf } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Recruitee Careers Site API, `GET https://{company}.recruitee.com/api/offers/`: the published
// offers in one answer, `description` and `requirements` as HTML, `published_at` a UTC timestamp;
// `remote`, `hybrid` and `on_site` flags, every place of the offer in `locations`, and a stated
// `salary` of `min` and `max` (strings), `currency` and `period`.
const amount = z.union([z.string(), z.number()]).nullish();
const document = z.object({
  offers: z.array(
    z.object({
      id: z.number().int(),
      title: z.string(),
      status: z.string().nullish(),
      description: z.string().nullish(),
      requirements: z.string().nullish(),
      location: z.string().nullish(),
      locations: z
        .array(
          z.object({ name: z.string().nullish(), city: z.string().nullish(), country: z.string().nullish() }).nullish(),
        )
        .nullish(),
      remote: z.boolean().nullish(),
      hybrid: z.boolean().nullish(),
      salary: z
        .object({ min: amount, max: amount, currency: z.string().nullish(), period: z.string().nullish() })
        .nullish(),
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
          const main =
            offer.location?.trim() ||
            [offer.city, offer.country]
              .map((part) => part?.trim())
              .filter(Boolean)
              .join(', ');
          const others = (offer.locations ?? []).map(
            (place) =>
              place?.name?.trim() ||
              [place?.city, place?.country]
                .map((part) => part?.trim())
                .filter(Boolean)
                .join(', '),
          );
          // With several places `location` is their list already; the list itself then says them.
          const places = others.length > 1 ? others : [main, ...others];
          const pay = payOf(
            offer.salary && {
              min: offer.salary.min,
              max: offer.salary.max,
              currency: offer.salary.currency,
              interval: offer.salary.period,
            },
          );
          return {
            jobId: String(offer.id),
            url: offer.careers_url,
            title: offer.title.trim(),
            location: placeOf(offer.remote ? 'remote' : offer.hybrid ? 'hybrid' : null, places),
            description: [plainTextOf(offer.description ?? ''), plainTextOf(offer.requirements ?? '')]
              .filter(Boolean)
              .join('\n\n'),
            statedDate: stated,
            publishedDay: dayOf(stated),
            department: offer.department?.trim() || undefined,
            ...(pay ? { pay } : {}),
          };
        }),
    };
  },
};
