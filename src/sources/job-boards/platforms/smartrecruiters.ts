import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { placeOf } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

/** The most the Posting API answers per page. */
const PAGE_SIZE = 100;
const api = (company: string) => `https://api.smartrecruiters.com/v1/companies/${encodeURIComponent(company)}/postings`;
const pageUrl = (company: string, offset: number) => `${api(company)}?limit=${PAGE_SIZE}&offset=${offset}`;

// SmartRecruiters Posting API, `GET /v1/companies/{companyIdentifier}/postings`: pages of
// `content` by `limit`/`offset` out of `totalFound`, without the job ad; `releasedDate` is a timestamp.
const list = z.object({
  offset: z.number().int().min(0),
  limit: z.number().int().min(0),
  totalFound: z.number().int().min(0),
  content: z.array(
    z.object({
      id: z.string().min(1),
      name: z.string(),
      releasedDate: z.string().nullish(),
      location: z
        .object({
          city: z.string().nullish(),
          region: z.string().nullish(),
          country: z.string().nullish(),
          remote: z.boolean().nullish(),
          hybrid: z.boolean().nullish(),
          fullLocation: z.string().nullish(),
        })
        .nullish(),
      department: z.object({ label: z.string().nullish() }).nullish(),
    }),
  ),
});

const section = z.object({ title: z.string().nullish(), text: z.string().nullish() }).nullish();
// `GET .../postings/{postingId}`: the posting with its job ad's sections (HTML) and its public page.
const detail = z.object({
  id: z.string().min(1),
  postingUrl: z.string().nullish(),
  jobAd: z.object({
    sections: z.object({
      companyDescription: section,
      jobDescription: section,
      qualifications: section,
      additionalInformation: section,
    }),
  }),
});

export const smartrecruiters: JobBoardPlatform = {
  ats: 'smartrecruiters',
  name: 'SmartRecruiters',
  boardUrl: (company) => pageUrl(company, 0),
  parse(body, company) {
    const parsed = list.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    const { offset, totalFound, content } = parsed.data;
    const read = offset + content.length;
    return {
      postings: content.map((posting) => {
        const place = posting.location;
        const location =
          place?.fullLocation?.trim() ||
          [place?.city, place?.region, place?.country]
            .map((part) => part?.trim())
            .filter(Boolean)
            .join(', ');
        return {
          jobId: posting.id,
          // The public page; the detail names it exactly.
          url: `https://jobs.smartrecruiters.com/${encodeURIComponent(company)}/${encodeURIComponent(posting.id)}`,
          title: posting.name.trim(),
          location: placeOf(place?.remote ? 'remote' : place?.hybrid ? 'hybrid' : null, [location]),
          description: '',
          statedDate: posting.releasedDate ?? '',
          publishedDay: dayOf(posting.releasedDate),
          department: posting.department?.label?.trim() || undefined,
        };
      }),
      next: content.length > 0 && read < totalFound ? pageUrl(company, read) : undefined,
    };
  },
  detail: {
    url: (company, posting) => `${api(company)}/${encodeURIComponent(posting.jobId)}`,
    parse(body, posting) {
      const parsed = detail.safeParse(body);
      if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
      const { sections } = parsed.data.jobAd;
      const description = [
        sections.companyDescription,
        sections.jobDescription,
        sections.qualifications,
        sections.additionalInformation,
      ]
        .map((part) => {
          const text = plainTextOf(part?.text ?? '');
          return text && part?.title?.trim() ? `${part.title.trim()}\n${text}` : text;
        })
        .filter(Boolean)
        .join('\n\n');
      return { ...posting, url: parsed.data.postingUrl || posting.url, description };
    },
  },
};
