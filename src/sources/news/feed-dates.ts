/**
 * Dates as feeds and pages state them (docs/decisions/sources.md, "Feed dates"): ISO 8601 in its
 * extended and basic forms (W3C-DTF, `dc:date`), and RFC 822 as feeds outside the English-speaking
 * world write it, with the day and month names of their language ("Di, 24 Dez 2026", "mar. 24
 * déc. 2026", "24 de diciembre de 2026"). A time without a zone is UTC. Anything else goes to
 * Date.parse (English forms such as "November 24, 2026"); what that cannot read is no date.
 */
export function isoDateOf(stated: string): string | null {
  const text = stated.trim();
  if (!text) return null;
  // A date of a known form whose parts are no real day (a 31 November) is no date, not Date.parse's guess.
  const at = isoForm(text) ?? rfc822Form(text) ?? parsed(text);
  return at === null || Number.isNaN(at) ? null : new Date(at).toISOString();
}

/** The first of `candidates` that states a readable date. */
export function firstIsoDateOf(...candidates: string[]): string | null {
  for (const candidate of candidates) {
    const iso = isoDateOf(candidate);
    if (iso) return iso;
  }
  return null;
}

const ISO_EXTENDED =
  /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const ISO_BASIC = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function isoForm(text: string): number | null {
  const m = ISO_EXTENDED.exec(text) ?? ISO_BASIC.exec(text);
  if (!m) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', fraction = '0', zone] = m;
  const ms = Math.round(Number(`0.${fraction}`) * 1000);
  return utc(+year!, +month!, +day!, +hour, +minute, +second, ms, zoneMinutes(zone ?? 'Z')) ?? NaN;
}

/** Month names and abbreviations of the languages feeds are written in, without accents, lower case. */
const MONTHS: Readonly<Record<string, number>> = Object.fromEntries(
  (
    [
      // English, German, French, Spanish, Italian, Dutch, Portuguese, Scandinavian, Polish (genitive and nominative).
      [1, 'jan january januar janner jan janvier janv enero ene gennaio gen januari janeiro stycznia styczen sty'],
      [2, 'feb february februar fevrier fevr fev febrero febbraio februari fevereiro lutego luty lut'],
      [3, 'mar march marz maerz mrz mars marzo maart marco marca marzec'],
      [4, 'apr april avril avr abril abr aprile kwietnia kwiecien kwi'],
      [5, 'may mai mayo maggio mag mei maio maj maja'],
      [6, 'jun june juni juin junio giugno giu junho czerwca czerwiec cze'],
      [7, 'jul july juli juillet juil julio luglio lug julho lipca lipiec lip'],
      [8, 'aug august aout aou agosto ago augustus augusti sierpnia sierpien sie'],
      [9, 'sep sept september septembre septiembre setiembre set settembre setembro wrzesnia wrzesien wrz'],
      [10, 'oct october oktober okt octobre octubre ottobre ott outubro out pazdziernika pazdziernik paz'],
      [11, 'nov november novembre noviembre novembro listopada listopad lis'],
      [12, 'dec december dezember dez decembre diciembre dic dicembre dezembro desember des grudnia grudzien gru'],
    ] as const
  ).flatMap(([month, names]) => names.split(' ').map((name) => [name, month])),
);

/** Zones by name as RFC 822 and European feeds write them, in minutes east of UTC. */
const ZONES: Readonly<Record<string, number>> = {
  z: 0,
  ut: 0,
  utc: 0,
  gmt: 0,
  wet: 0,
  west: 60,
  bst: 60,
  cet: 60,
  mez: 60,
  cest: 120,
  mesz: 120,
  eet: 120,
  eest: 180,
  est: -300,
  edt: -240,
  cst: -360,
  cdt: -300,
  mst: -420,
  mdt: -360,
  pst: -480,
  pdt: -420,
};

// "24 Dez 2026 09:30:00 +0100" once the day's name is gone; "24. Dezember 2026", "24 de diciembre de 2026".
const RFC822 =
  /^(\d{1,2})\.?\s+(?:de\s+)?([\p{L}]+)\.?,?\s+(?:de\s+)?(\d{4}|\d{2})(?:,?\s+(?:um\s+|à\s+|a las\s+)?(\d{1,2})[:h.](\d{2})(?:[:.](\d{2}))?)?\s*(.*)$/iu;

function rfc822Form(text: string): number | null {
  // The day's name, in whatever language, is everything before the first digit.
  const m = RFC822.exec(text.replace(/^[^\d]*/, ''));
  if (!m) return null;
  const [, day, monthName, year, hour = '0', minute = '0', second = '0', rest = ''] = m;
  const month = MONTHS[plain(monthName!)];
  if (!month) return null;
  const zone = rest.trim() === '' ? 0 : zoneMinutes(rest.trim().replace(/^\(|\)$/g, ''));
  if (zone === null) return null;
  const fullYear = year!.length === 2 ? 2000 + Number(year) : Number(year);
  return utc(fullYear, month, +day!, +hour, +minute, +second, 0, zone) ?? NaN;
}

/** `Z`, `+01`, `+0100`, `+01:00`, `GMT`, `CET`… in minutes east of UTC; null when not a zone. */
function zoneMinutes(zone: string): number | null {
  const offset = /^(?:gmt|utc)?([+-])(\d{2}):?(\d{2})?$/i.exec(zone);
  if (offset) return (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3] ?? 0));
  return ZONES[zone.toLowerCase()] ?? null;
}

/** The instant, or null when the parts are no real date (a 31 November). */
function utc(
  year: number,
  month: number,
  day: number,
  hour: number,
  minute: number,
  second: number,
  ms: number,
  zone: number | null,
): number | null {
  if (zone === null || hour > 24 || minute > 59 || second > 60) return null;
  const local = Date.UTC(year, month - 1, day, hour, minute, second, ms);
  if (new Date(local).getUTCDate() !== day) return null;
  return local - zone * 60_000;
}

function parsed(text: string): number | null {
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : at;
}

const plain = (word: string) =>
  word
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .toLowerCase();
