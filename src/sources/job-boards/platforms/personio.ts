import { z } from 'zod';
import { plainTextOf } from '../../kit/plain-text';
import { placeOf } from '../job-places';
import { dayOf, problemOf, type JobBoardPlatform } from './job-board';

// Personio's XML feed, `GET https://{company}.jobs.personio.de/xml`: `<workzag-jobs>` with one
// `<position>` per published job, its text in `<jobDescriptions>` (CDATA HTML), `createdAt` a timestamp.
const position = z.object({
  id: z.string().min(1),
  name: z.string(),
  office: z.array(z.string()).nullish(),
  // The posting's other offices, `<additionalOffices><office>…</office></additionalOffices>`.
  additionalOffices: z.union([z.literal(''), z.object({ office: z.array(z.string()).nullish() })]).nullish(),
  department: z.string().nullish(),
  createdAt: z.string().nullish(),
  jobDescriptions: z
    .union([
      z.literal(''),
      z.object({
        jobDescription: z.array(z.object({ name: z.string().nullish(), value: z.string().nullish() })).nullish(),
      }),
    ])
    .nullish(),
});
// An empty feed is `<workzag-jobs/>`, which reads as an empty text.
const document = z.object({
  'workzag-jobs': z.union([z.literal(''), z.object({ position: z.array(position).nullish() })]),
});

export const personio: JobBoardPlatform = {
  ats: 'personio',
  name: 'Personio',
  format: 'xml',
  boardUrl: (company) => `https://${encodeURIComponent(company)}.jobs.personio.de/xml`,
  parse(body, company) {
    const parsed = document.safeParse(body);
    if (!parsed.success) return { problem: problemOf(parsed.error.issues) };
    const feed = parsed.data['workzag-jobs'];
    const positions = feed === '' ? [] : (feed.position ?? []);
    return {
      postings: positions.map((job) => {
        const sections = job.jobDescriptions === '' ? [] : (job.jobDescriptions?.jobDescription ?? []);
        return {
          jobId: job.id,
          url: `https://${encodeURIComponent(company)}.jobs.personio.de/job/${encodeURIComponent(job.id)}`,
          title: job.name.trim(),
          location: placeOf(null, [
            ...(job.office ?? []),
            ...(job.additionalOffices ? (job.additionalOffices.office ?? []) : []),
          ]),
          description: sections
            .map((part) => {
              const text = plainTextOf(part.value ?? '');
              return text && part.name?.trim() ? `${part.name.trim()}\n${text}` : text;
            })
            .filter(Boolean)
            .join('\n\n'),
          statedDate: job.createdAt ?? '',
          publishedDay: dayOf(job.createdAt),
          department: job.department?.trim() || undefined,
        };
      }),
    };
  },
};
