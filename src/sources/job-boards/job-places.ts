/**
 * Where a posting's work is done and what it pays, said as the posting says it
 * (docs/decisions/sources.md, "A posting's place and pay"): its workplace first ("Remote",
 * "Hybrid"), then its locations ("Remote, Berlin or London"); a pay range as
 * "EUR 60,000–80,000 a year".
 */
export type Workplace = 'remote' | 'hybrid' | 'on-site' | null;

const WORKPLACE_WORDS: Readonly<Record<Exclude<Workplace, null>, string>> = {
  remote: 'Remote',
  hybrid: 'Hybrid',
  'on-site': '',
};

/** A board's own word for the workplace (`remote`, `Hybrid`, `onsite`, `OnSite`, `on_site`…), or null. */
export function workplaceOf(word: string | null | undefined): Workplace {
  const key = (word ?? '').toLowerCase().replace(/[^a-z]/g, '');
  if (key === 'remote' || key === 'fullyremote') return 'remote';
  if (key === 'hybrid') return 'hybrid';
  if (key === 'onsite' || key === 'office' || key === 'inoffice') return 'on-site';
  return null;
}

/**
 * "Remote, Berlin or London": the workplace (unless a location already says it), then each
 * distinct location in the posting's order, the last joined by "or".
 */
export function placeOf(workplace: Workplace, locations: ReadonlyArray<string | null | undefined>): string {
  const seen = new Set<string>();
  const places: string[] = [];
  for (const location of locations) {
    const place = location?.replace(/\s+/g, ' ').trim();
    if (!place || seen.has(place.toLowerCase())) continue;
    seen.add(place.toLowerCase());
    places.push(place);
  }
  const word = workplace ? WORKPLACE_WORDS[workplace] : '';
  const said = places.some((place) => word && place.toLowerCase().includes(word.toLowerCase()));
  const listed = places.length <= 1 ? (places[0] ?? '') : `${places.slice(0, -1).join(', ')} or ${places.at(-1)}`;
  return [said ? '' : word, listed].filter(Boolean).join(', ');
}

export interface PayRange {
  min?: number | string | null;
  max?: number | string | null;
  currency?: string | null;
  /** The board's period: `per-year-salary`, `year`, `YEAR`, `1 YEAR`, `hourly`, `per-month-salary`… */
  interval?: string | null;
}

const PERIODS: ReadonlyArray<[RegExp, string]> = [
  [/year|annual|annum/i, 'a year'],
  [/month/i, 'a month'],
  [/week/i, 'a week'],
  [/day|daily/i, 'a day'],
  [/hour/i, 'an hour'],
];

/** "EUR 60,000–80,000 a year", "USD 45 an hour", "from GBP 50,000 a year"; empty without a number. */
export function payOf(range: PayRange | null | undefined): string {
  if (!range) return '';
  const min = amountOf(range.min);
  const max = amountOf(range.max);
  if (min === null && max === null) return '';
  const figure = (n: number) =>
    n.toLocaleString('en-US', { minimumFractionDigits: Number.isInteger(n) ? 0 : 2, maximumFractionDigits: 2 });
  const amount =
    min !== null && max !== null && min !== max
      ? `${figure(min)}–${figure(max)}`
      : min !== null && max !== null
        ? figure(min)
        : min !== null
          ? `from ${figure(min)}`
          : `up to ${figure(max!)}`;
  const currency = range.currency?.trim().toUpperCase() ?? '';
  const period = PERIODS.find(([pattern]) => pattern.test(range.interval ?? ''))?.[1] ?? '';
  const withCurrency = currency ? amount.replace(/(\d[\d,.]*–?[\d,.]*)/, `${currency} $1`) : amount;
  return [withCurrency, period].filter(Boolean).join(' ');
}

function amountOf(value: number | string | null | undefined): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(String(value).replace(/[^\d.]/g, ''));
  return Number.isFinite(n) && n > 0 ? n : null;
}
