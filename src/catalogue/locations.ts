/**
 * Gazetteer behind `locations` filters and `GET /api/v1/enrichment/validate-location`:
 * countries, regions (states, provinces, counties...) and cities from the
 * `country-state-city` package, matched case- and accent-insensitively.
 *
 * The package has ~150k cities and no population figures, so ambiguous names
 * are settled by rules instead, in this order:
 *  1. a country beats anything else ("Georgia" is the country; "Georgia, US"
 *     is the state);
 *  2. a curated list of major business cities (MAJOR_CITIES) beats regions and
 *     other cities ("Paris" is Paris, France; "London" is London, England);
 *  3. a region that has cities of its own beats a city ("Washington" is the
 *     state, "Quebec" the province);
 *  4. a city that shares its name with a region of its own country: such a
 *     region (GB's unitary authorities, IT's metropolitan cities...) exists
 *     because the city is large, so "Coventry" is the English city, not the
 *     town in Rhode Island;
 *  5. then any city;
 *  6. last, a region that no city of the package belongs to (those same GB
 *     authorities, FR's départements...): when a user types "Coventry" the
 *     city is what they mean, and it is the city that person data names;
 *  and within one of those ranks, the country that comes first in
 *  COUNTRY_PREFERENCE (the main B2B markets), then country code, region code
 *  and name, so the answer never depends on load order.
 *
 * "City, Qualifier" forms ("Paris, FR", "Austin, Texas", "Portland, ME",
 * "Austin, Texas, United States") restrict the candidates to those inside
 * every qualifier, a qualifier being a country (name, alias or ISO code) or a
 * region (name or code) — "ME" is Montenegro or Maine, whichever has a
 * Portland.
 *
 * Indexes are built on first use and kept for the life of the process; after
 * that a lookup is a few map reads. `warmUpLocations()` pays the build cost
 * (a few hundred milliseconds) at start-up instead of in a request.
 */
import type * as CountryStateCity from 'country-state-city';
import { boundedEditDistance, foldText, suggestionTolerance } from './text-matching';

export type LocationKind = 'country' | 'region' | 'city';

export interface ResolvedLocation {
  /** What the client sent, unchanged. */
  input: string;
  /** Canonical display name: "France", "California, United States", "Austin, Texas, United States". */
  name: string;
  kind: LocationKind;
  /** ISO 3166-1 alpha-2. */
  countryCode: string;
  /** The package's region code (ISO 3166-2 suffix where one exists), for regions and cities. */
  regionCode?: string;
  /** Region name, for regions and cities. */
  region?: string;
  /** City name, for cities. */
  city?: string;
}

export interface LocationValidation {
  valid: ResolvedLocation[];
  invalid: { input: string; suggestions: string[] }[];
}

export interface PersonLocation {
  countryCode?: string | null;
  city?: string | null;
  /** Region name or code, when the data has one. */
  region?: string | null;
  /** Free text such as "Austin, Texas, United States", used when city and region do not settle it. */
  location?: string | null;
}

export interface GazetteerCity {
  name: string;
  countryCode: string;
  regionCode: string;
  region: string;
}

// Markets first: an ambiguous name goes to the country where a B2B buyer most likely means it.
const COUNTRY_PREFERENCE = [
  'US',
  'GB',
  'CA',
  'AU',
  'DE',
  'FR',
  'IN',
  'NL',
  'ES',
  'IT',
  'IE',
  'SE',
  'CH',
  'BE',
  'SG',
  'IL',
  'AE',
  'JP',
  'BR',
  'MX',
  'NZ',
  'DK',
  'NO',
  'FI',
  'AT',
  'PL',
  'PT',
  'ZA',
  'KR',
  'CN',
];
const PREFERENCE_RANK: ReadonlyMap<string, number> = new Map(COUNTRY_PREFERENCE.map((code, i) => [code, i]));
const preferenceOf = (countryCode: string) => PREFERENCE_RANK.get(countryCode) ?? COUNTRY_PREFERENCE.length;

// The package's names are sometimes dated or formal; these are what the API shows.
const COUNTRY_DISPLAY_NAMES: Readonly<Record<string, string>> = {
  BS: 'Bahamas',
  CD: 'Democratic Republic of the Congo',
  CG: 'Republic of the Congo',
  CI: "Côte d'Ivoire",
  CV: 'Cabo Verde',
  FJ: 'Fiji',
  GG: 'Guernsey',
  GM: 'Gambia',
  HK: 'Hong Kong',
  IM: 'Isle of Man',
  MK: 'North Macedonia',
  MO: 'Macao',
  PG: 'Papua New Guinea',
  PS: 'Palestine',
  SZ: 'Eswatini',
  TL: 'Timor-Leste',
  VA: 'Vatican City',
  VG: 'British Virgin Islands',
  VI: 'U.S. Virgin Islands',
  BL: 'Saint Barthélemy',
  MF: 'Saint Martin',
  SX: 'Sint Maarten',
  PN: 'Pitcairn Islands',
  SJ: 'Svalbard and Jan Mayen',
  WF: 'Wallis and Futuna',
  TC: 'Turks and Caicos Islands',
};

const COUNTRY_ALIASES: Readonly<Record<string, readonly string[]>> = {
  US: ['USA', 'U.S.', 'U.S.A.', 'United States of America', 'America', 'the US', 'the United States'],
  GB: ['UK', 'U.K.', 'Great Britain', 'Britain', 'United Kingdom of Great Britain and Northern Ireland', 'the UK'],
  AE: ['UAE', 'U.A.E.', 'Emirates'],
  NL: ['Holland', 'The Netherlands', 'Nederland'],
  DE: ['Deutschland'],
  ES: ['España'],
  IT: ['Italia'],
  CH: ['Schweiz', 'Suisse', 'Svizzera'],
  AT: ['Österreich'],
  BR: ['Brasil'],
  MX: ['México'],
  PL: ['Polska'],
  SE: ['Sverige'],
  NO: ['Norge'],
  DK: ['Danmark'],
  FI: ['Suomi'],
  BE: ['Belgique', 'België'],
  CZ: ['Czechia'],
  KR: ['Korea', 'Republic of Korea'],
  KP: ['DPRK'],
  RU: ['Russian Federation'],
  VN: ['Viet Nam'],
  TR: ['Türkiye', 'Turkiye'],
  IR: ['Islamic Republic of Iran'],
  SY: ['Syrian Arab Republic'],
  LA: ['Lao PDR', "Lao People's Democratic Republic"],
  BN: ['Brunei Darussalam'],
  MM: ['Burma'],
  CD: ['DRC', 'DR Congo', 'Congo-Kinshasa'],
  CG: ['Congo-Brazzaville'],
  CI: ['Ivory Coast'],
  TZ: ['United Republic of Tanzania'],
  BO: ['Plurinational State of Bolivia'],
  VE: ['Bolivarian Republic of Venezuela'],
  MD: ['Republic of Moldova'],
  PS: ['Palestinian Territories', 'State of Palestine'],
  VA: ['Holy See', 'Vatican'],
  CN: ["People's Republic of China", 'PRC'],
  TW: ['Republic of China'],
  HK: ['Hong Kong SAR', 'Hong Kong S.A.R.'],
  MO: ['Macau', 'Macau SAR', 'Macao SAR'],
  BA: ['Bosnia'],
  TT: ['Trinidad'],
  NZ: ['Aotearoa'],
  IE: ['Republic of Ireland', 'Éire'],
};

type MajorCityRow = readonly [name: string, countryCode: string, regionCode: string, aliases?: readonly string[]];

/**
 * Cities a user means when they type the bare name, with the region the
 * package files them under. Where the package lacks the city (Istanbul, Abu
 * Dhabi...) the row adds it; where it has it under another spelling ("München",
 * "Ciudad de México") that spelling becomes an alias of the English name.
 */
const MAJOR_CITIES: readonly MajorCityRow[] = [
  ['New York City', 'US', 'NY', ['NYC', 'New York, NY']],
  ['San Francisco', 'US', 'CA', ['SF']],
  ['Los Angeles', 'US', 'CA', ['LA']],
  ['San Diego', 'US', 'CA'],
  ['San Jose', 'US', 'CA', ['San José']],
  ['Palo Alto', 'US', 'CA'],
  ['Mountain View', 'US', 'CA'],
  ['Menlo Park', 'US', 'CA'],
  ['Sacramento', 'US', 'CA'],
  ['Chicago', 'US', 'IL'],
  ['Boston', 'US', 'MA'],
  ['Seattle', 'US', 'WA'],
  ['Austin', 'US', 'TX'],
  ['Dallas', 'US', 'TX'],
  ['Houston', 'US', 'TX'],
  ['Denver', 'US', 'CO'],
  ['Boulder', 'US', 'CO'],
  ['Atlanta', 'US', 'GA'],
  ['Miami', 'US', 'FL'],
  ['Orlando', 'US', 'FL'],
  ['Tampa', 'US', 'FL'],
  ['Washington, D.C.', 'US', 'DC', ['Washington DC', 'Washington D.C.', 'DC']],
  ['Philadelphia', 'US', 'PA'],
  ['Pittsburgh', 'US', 'PA'],
  ['Phoenix', 'US', 'AZ'],
  ['Portland', 'US', 'OR'],
  ['Salt Lake City', 'US', 'UT'],
  ['Minneapolis', 'US', 'MN'],
  ['Detroit', 'US', 'MI'],
  ['Nashville', 'US', 'TN'],
  ['Raleigh', 'US', 'NC'],
  ['Charlotte', 'US', 'NC'],
  ['Columbus', 'US', 'OH'],
  ['Cleveland', 'US', 'OH'],
  ['Cincinnati', 'US', 'OH'],
  ['Baltimore', 'US', 'MD'],
  ['St. Louis', 'US', 'MO', ['Saint Louis']],
  ['Kansas City', 'US', 'MO'],
  ['Las Vegas', 'US', 'NV'],
  ['Indianapolis', 'US', 'IN'],
  ['Toronto', 'CA', 'ON'],
  ['Ottawa', 'CA', 'ON'],
  ['Waterloo', 'CA', 'ON'],
  ['Vancouver', 'CA', 'BC'],
  ['Montreal', 'CA', 'QC', ['Montréal']],
  ['Calgary', 'CA', 'AB'],
  ['Quebec City', 'CA', 'QC', ['Québec City', 'Ville de Québec']],
  ['Edmonton', 'CA', 'AB'],
  ['London', 'GB', 'ENG', ['Greater London']],
  ['Manchester', 'GB', 'ENG'],
  ['Birmingham', 'GB', 'ENG'],
  ['Bristol', 'GB', 'ENG'],
  ['Leeds', 'GB', 'ENG'],
  ['Liverpool', 'GB', 'ENG'],
  ['Cambridge', 'GB', 'ENG'],
  ['Oxford', 'GB', 'ENG'],
  ['Edinburgh', 'GB', 'SCT'],
  ['Glasgow', 'GB', 'SCT'],
  ['Cardiff', 'GB', 'WLS'],
  ['Belfast', 'GB', 'NIR'],
  ['Dublin', 'IE', 'L'],
  ['Cork', 'IE', 'M'],
  ['Paris', 'FR', 'IDF'],
  ['Lyon', 'FR', 'ARA'],
  ['Marseille', 'FR', 'PAC'],
  ['Nice', 'FR', 'PAC'],
  ['Toulouse', 'FR', 'OCC'],
  ['Montpellier', 'FR', 'OCC'],
  ['Bordeaux', 'FR', 'NAQ'],
  ['Nantes', 'FR', 'PDL'],
  ['Lille', 'FR', 'HDF'],
  ['Strasbourg', 'FR', 'GES'],
  ['Berlin', 'DE', 'BE'],
  ['Munich', 'DE', 'BY', ['München', 'Muenchen']],
  ['Hamburg', 'DE', 'HH'],
  ['Frankfurt', 'DE', 'HE', ['Frankfurt am Main']],
  ['Cologne', 'DE', 'NW', ['Köln', 'Koeln']],
  ['Düsseldorf', 'DE', 'NW', ['Duesseldorf']],
  ['Stuttgart', 'DE', 'BW'],
  ['Leipzig', 'DE', 'SN'],
  ['Amsterdam', 'NL', 'NH'],
  ['Rotterdam', 'NL', 'ZH'],
  ['The Hague', 'NL', 'ZH', ['Den Haag', "'s-Gravenhage"]],
  ['Utrecht', 'NL', 'UT'],
  ['Eindhoven', 'NL', 'NB'],
  ['Brussels', 'BE', 'BRU', ['Bruxelles', 'Brussel']],
  ['Antwerp', 'BE', 'VLG', ['Antwerpen', 'Anvers']],
  ['Ghent', 'BE', 'VLG', ['Gent', 'Gand']],
  ['Madrid', 'ES', 'MD'],
  ['Barcelona', 'ES', 'CT'],
  ['Valencia', 'ES', 'VC'],
  ['Seville', 'ES', 'AN', ['Sevilla']],
  ['Málaga', 'ES', 'AN'],
  ['Bilbao', 'ES', 'PV'],
  ['Lisbon', 'PT', '11', ['Lisboa']],
  ['Porto', 'PT', '13', ['Oporto']],
  ['Milan', 'IT', '25', ['Milano']],
  ['Rome', 'IT', '62', ['Roma']],
  ['Turin', 'IT', '21', ['Torino']],
  ['Naples', 'IT', '72', ['Napoli']],
  ['Florence', 'IT', '52', ['Firenze']],
  ['Zurich', 'CH', 'ZH', ['Zürich', 'Zuerich']],
  ['Geneva', 'CH', 'GE', ['Genève', 'Genf']],
  ['Basel', 'CH', 'BS'],
  ['Lausanne', 'CH', 'VD'],
  ['Bern', 'CH', 'BE', ['Berne']],
  ['Vienna', 'AT', '9', ['Wien']],
  ['Stockholm', 'SE', 'AB'],
  ['Gothenburg', 'SE', 'O', ['Göteborg']],
  ['Malmö', 'SE', 'M'],
  ['Copenhagen', 'DK', '84', ['København']],
  ['Aarhus', 'DK', '82', ['Århus']],
  ['Oslo', 'NO', '03'],
  ['Helsinki', 'FI', '18'],
  ['Reykjavík', 'IS', '1'],
  ['Warsaw', 'PL', 'MZ', ['Warszawa']],
  ['Kraków', 'PL', 'MA', ['Cracow']],
  ['Prague', 'CZ', '10', ['Praha']],
  ['Budapest', 'HU', 'BU'],
  ['Bucharest', 'RO', 'B', ['București']],
  ['Sofia', 'BG', '22'],
  ['Athens', 'GR', 'I', ['Athina']],
  ['Tallinn', 'EE', '37'],
  ['Riga', 'LV', 'RIX'],
  ['Vilnius', 'LT', '57'],
  ['Kyiv', 'UA', '30', ['Kiev']],
  ['Istanbul', 'TR', '34', ['İstanbul']],
  ['Moscow', 'RU', 'MOW', ['Moskva']],
  ['Tel Aviv', 'IL', 'TA', ['Tel Aviv-Yafo', 'Tel-Aviv']],
  ['Jerusalem', 'IL', 'JM'],
  ['Dubai', 'AE', 'DU'],
  ['Abu Dhabi', 'AE', 'AZ'],
  ['Riyadh', 'SA', '01'],
  ['Doha', 'QA', 'DA'],
  ['Cairo', 'EG', 'C'],
  ['Tokyo', 'JP', '13'],
  ['Osaka', 'JP', '27'],
  ['Seoul', 'KR', '11'],
  ['Beijing', 'CN', 'BJ', ['Peking']],
  ['Shanghai', 'CN', 'SH'],
  ['Shenzhen', 'CN', 'GD'],
  ['Guangzhou', 'CN', 'GD'],
  ['Taipei', 'TW', 'TPE'],
  ['Bengaluru', 'IN', 'KA', ['Bangalore']],
  ['Mumbai', 'IN', 'MH', ['Bombay']],
  ['Pune', 'IN', 'MH'],
  ['New Delhi', 'IN', 'DL'],
  ['Delhi', 'IN', 'DL'],
  ['Hyderabad', 'IN', 'TG'],
  ['Chennai', 'IN', 'TN', ['Madras']],
  ['Gurgaon', 'IN', 'HR', ['Gurugram']],
  ['Noida', 'IN', 'UP'],
  ['Jakarta', 'ID', 'JK'],
  ['Manila', 'PH', 'NCR'],
  ['Bangkok', 'TH', '10'],
  ['Kuala Lumpur', 'MY', '14'],
  ['Ho Chi Minh City', 'VN', 'SG', ['Saigon']],
  ['Hanoi', 'VN', 'HN'],
  ['Karachi', 'PK', 'SD'],
  ['Lahore', 'PK', 'PB'],
  ['Dhaka', 'BD', '13'],
  ['Sydney', 'AU', 'NSW'],
  ['Melbourne', 'AU', 'VIC'],
  ['Brisbane', 'AU', 'QLD'],
  ['Perth', 'AU', 'WA'],
  ['Adelaide', 'AU', 'SA'],
  ['Auckland', 'NZ', 'AUK'],
  ['Wellington', 'NZ', 'WGN'],
  ['Mexico City', 'MX', 'CDMX', ['Ciudad de México', 'CDMX']],
  ['Guadalajara', 'MX', 'JAL'],
  ['Monterrey', 'MX', 'NLE'],
  ['São Paulo', 'BR', 'SP'],
  ['Rio de Janeiro', 'BR', 'RJ'],
  ['Buenos Aires', 'AR', 'C', ['CABA']],
  ['Santiago', 'CL', 'RM', ['Santiago de Chile']],
  ['Bogotá', 'CO', 'DC', ['Bogotá D.C.']],
  ['Medellín', 'CO', 'ANT'],
  ['Lima', 'PE', 'LIM'],
  ['Lagos', 'NG', 'LA'],
  ['Nairobi', 'KE', '30'],
  ['Cape Town', 'ZA', 'WC'],
  ['Johannesburg', 'ZA', 'GP'],
  ['Casablanca', 'MA', '06'],
  ['Accra', 'GH', 'AA'],
];

/**
 * Spellings found in person data that must compare equal to a major city but
 * that must not resolve to it as a filter: "New York" as a filter is the state.
 */
const MATCH_ONLY_CITY_ALIASES: readonly (readonly [countryCode: string, alias: string, city: string])[] = [
  ['US', 'New York', 'New York City'],
  ['US', 'Manhattan', 'New York City'],
  ['US', 'Brooklyn', 'New York City'],
];

interface CountryEntry {
  code: string;
  name: string;
}

interface RegionEntry {
  countryCode: string;
  code: string;
  name: string;
  /** Whether any city of the package is filed under it (rules 3 and 6 above). */
  hasCities: boolean;
}

interface CityEntry {
  name: string;
  countryCode: string;
  regionCode: string;
  major: boolean;
  /** Named like a region of its own country (rule 4 above). */
  seat: boolean;
}

type Place =
  | { kind: 'country'; country: CountryEntry }
  | { kind: 'region'; region: RegionEntry }
  | { kind: 'city'; city: CityEntry };

interface Qualifier {
  countries: Set<string>;
  /** `${countryCode}|${regionCode}` */
  regions: Set<string>;
}

interface CountryIndex {
  byCode: Map<string, CountryEntry>;
  byKey: Map<string, CountryEntry>;
  /** Display names and aliases (not codes), as suggestion targets. */
  suggestionKeys: Map<string, CountryEntry>;
}

interface GazetteerIndex {
  regionsByKey: Map<string, RegionEntry[]>;
  regionsByCodeKey: Map<string, RegionEntry[]>;
  regionByCountryAndCode: Map<string, RegionEntry>;
  citiesByKey: Map<string, CityEntry[]>;
  /** `${countryCode}|${folded spelling}` → folded canonical city name, for comparing person data. */
  cityCanonicalKey: Map<string, string>;
  citiesByCountry: Map<string, CityEntry[]>;
  majorByCountry: Map<string, CityEntry[]>;
  /** Folded city names grouped by length, so a suggestion scan only visits names of a plausible length. */
  cityKeysByLength: Map<number, string[]>;
}

const regionKey = (countryCode: string, code: string) => `${countryCode}|${code}`;

/**
 * Required on first use rather than imported: the package parses ~8 MB of
 * JSON when loaded, which a process that never looks up a place (or a
 * workflow bundle) should not carry.
 */
function packageData(): typeof CountryStateCity {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('country-state-city') as typeof CountryStateCity;
}

let countryIndexCache: CountryIndex | undefined;
let gazetteerCache: GazetteerIndex | undefined;

function countryIndex(): CountryIndex {
  if (countryIndexCache) return countryIndexCache;
  const byCode = new Map<string, CountryEntry>();
  const byKey = new Map<string, CountryEntry>();
  const suggestionKeys = new Map<string, CountryEntry>();
  for (const country of packageData().Country.getAllCountries()) {
    const name = COUNTRY_DISPLAY_NAMES[country.isoCode] ?? country.name.replace(/ And /g, ' and ');
    const entry: CountryEntry = { code: country.isoCode, name };
    byCode.set(entry.code, entry);
    for (const spelling of [name, country.name, ...(COUNTRY_ALIASES[entry.code] ?? [])]) {
      const key = foldText(spelling);
      if (!key) continue;
      byKey.set(key, entry);
      suggestionKeys.set(key, entry);
    }
    byKey.set(entry.code.toLowerCase(), entry);
  }
  countryIndexCache = { byCode, byKey, suggestionKeys };
  return countryIndexCache;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function gazetteer(): GazetteerIndex {
  if (gazetteerCache) return gazetteerCache;
  const countries = countryIndex();
  const { City, State } = packageData();
  const allCities = City.getAllCities();

  const statesWithCities = new Set<string>();
  for (const city of allCities) statesWithCities.add(regionKey(city.countryCode, city.stateCode));

  const regionsByKey = new Map<string, RegionEntry[]>();
  const regionNames = new Set<string>();
  const regionsByCodeKey = new Map<string, RegionEntry[]>();
  const regionByCountryAndCode = new Map<string, RegionEntry>();
  for (const state of State.getAllStates()) {
    if (!countries.byCode.has(state.countryCode)) continue;
    const entry: RegionEntry = {
      countryCode: state.countryCode,
      code: state.isoCode,
      name: state.name,
      hasCities: statesWithCities.has(regionKey(state.countryCode, state.isoCode)),
    };
    regionByCountryAndCode.set(regionKey(entry.countryCode, entry.code), entry);
    const key = foldText(entry.name);
    if (key) {
      pushTo(regionsByKey, key, entry);
      regionNames.add(`${entry.countryCode}|${key}`);
    }
    pushTo(regionsByCodeKey, foldText(entry.code), entry);
  }

  const citiesByKey = new Map<string, CityEntry[]>();
  const cityCanonicalKey = new Map<string, string>();
  const citiesByCountry = new Map<string, CityEntry[]>();
  const majorByCountry = new Map<string, CityEntry[]>();

  // Spellings a major city takes over, so the package's own row for it does not compete with it.
  const claimed = new Set<string>();
  const majors: { entry: CityEntry; keys: string[] }[] = [];
  for (const [name, countryCode, regionCode, aliases = []] of MAJOR_CITIES) {
    const entry: CityEntry = { name, countryCode, regionCode, major: true, seat: false };
    const keys = [...new Set([name, ...aliases].map(foldText).filter(Boolean))];
    for (const key of keys) {
      claimed.add(`${countryCode}|${regionCode}|${key}`);
      cityCanonicalKey.set(`${countryCode}|${key}`, keys[0]);
    }
    majors.push({ entry, keys });
  }
  for (const [countryCode, alias, city] of MATCH_ONLY_CITY_ALIASES) {
    cityCanonicalKey.set(`${countryCode}|${foldText(alias)}`, foldText(city));
  }

  for (const { entry, keys } of majors) {
    for (const key of keys) pushTo(citiesByKey, key, entry);
    pushTo(citiesByCountry, entry.countryCode, entry);
    pushTo(majorByCountry, entry.countryCode, entry);
  }

  const seen = new Set<string>();
  for (const city of allCities) {
    if (!countries.byCode.has(city.countryCode)) continue;
    const key = foldText(city.name);
    if (!key) continue;
    const identity = `${city.countryCode}|${city.stateCode}|${key}`;
    // The package lists some places twice (once per spelling variant that folds the same).
    if (claimed.has(identity) || seen.has(identity)) continue;
    seen.add(identity);
    const entry: CityEntry = {
      name: city.name,
      countryCode: city.countryCode,
      regionCode: city.stateCode,
      major: false,
      seat: regionNames.has(`${city.countryCode}|${key}`),
    };
    pushTo(citiesByKey, key, entry);
    pushTo(citiesByCountry, entry.countryCode, entry);
  }

  const cityKeysByLength = new Map<number, string[]>();
  for (const key of citiesByKey.keys()) pushTo(cityKeysByLength, key.length, key);

  gazetteerCache = {
    regionsByKey,
    regionsByCodeKey,
    regionByCountryAndCode,
    citiesByKey,
    cityCanonicalKey,
    citiesByCountry,
    majorByCountry,
    cityKeysByLength,
  };
  return gazetteerCache;
}

/** Builds the indexes now, so that the first request does not pay for them. */
export function warmUpLocations(): void {
  gazetteer();
}

function placeRank(place: Place): number {
  switch (place.kind) {
    case 'country':
      return 0;
    case 'city':
      return place.city.major ? 1 : place.city.seat ? 3 : 4;
    case 'region':
      return place.region.hasCities ? 2 : 5;
  }
}

function placeCountry(place: Place): string {
  return place.kind === 'country'
    ? place.country.code
    : place.kind === 'region'
      ? place.region.countryCode
      : place.city.countryCode;
}

function placeRegionCode(place: Place): string {
  return place.kind === 'region' ? place.region.code : place.kind === 'city' ? place.city.regionCode : '';
}

function placeName(place: Place): string {
  return place.kind === 'country' ? place.country.name : place.kind === 'region' ? place.region.name : place.city.name;
}

function comparePlaces(a: Place, b: Place): number {
  return (
    placeRank(a) - placeRank(b) ||
    preferenceOf(placeCountry(a)) - preferenceOf(placeCountry(b)) ||
    placeCountry(a).localeCompare(placeCountry(b)) ||
    placeRegionCode(a).localeCompare(placeRegionCode(b)) ||
    placeName(a).localeCompare(placeName(b))
  );
}

function placesNamed(key: string): Place[] {
  const index = gazetteer();
  const places: Place[] = [];
  const country = countryIndex().byKey.get(key);
  if (country) places.push({ kind: 'country', country });
  for (const region of index.regionsByKey.get(key) ?? []) places.push({ kind: 'region', region });
  for (const city of index.citiesByKey.get(key) ?? []) places.push({ kind: 'city', city });
  return places;
}

function qualifierFor(key: string): Qualifier | undefined {
  const index = gazetteer();
  const qualifier: Qualifier = { countries: new Set(), regions: new Set() };
  const country = countryIndex().byKey.get(key);
  if (country) qualifier.countries.add(country.code);
  for (const region of index.regionsByKey.get(key) ?? [])
    qualifier.regions.add(regionKey(region.countryCode, region.code));
  for (const region of index.regionsByCodeKey.get(key) ?? [])
    qualifier.regions.add(regionKey(region.countryCode, region.code));
  return qualifier.countries.size || qualifier.regions.size ? qualifier : undefined;
}

function satisfies(place: Place, qualifier: Qualifier): boolean {
  const country = placeCountry(place);
  if (qualifier.countries.has(country)) return true;
  return place.kind !== 'country' && qualifier.regions.has(regionKey(country, placeRegionCode(place)));
}

function bestPlace(key: string, qualifiers: readonly Qualifier[]): Place | undefined {
  let best: Place | undefined;
  for (const place of placesNamed(key)) {
    if (!qualifiers.every((qualifier) => satisfies(place, qualifier))) continue;
    if (!best || comparePlaces(place, best) < 0) best = place;
  }
  return best;
}

function findPlace(input: string): Place | undefined {
  const parts = input.split(',').map(foldText).filter(Boolean);
  // Longest head first: some names contain a comma themselves ("Washington, D.C., US").
  for (let headLength = parts.length; headLength >= 1; headLength--) {
    const head = parts.slice(0, headLength).join(' ');
    const qualifiers: Qualifier[] = [];
    for (const part of parts.slice(headLength)) {
      const qualifier = qualifierFor(part);
      if (!qualifier) break;
      qualifiers.push(qualifier);
    }
    if (qualifiers.length !== parts.length - headLength) continue;
    const place = bestPlace(head, qualifiers);
    if (place) return place;
  }
  return undefined;
}

function regionOf(countryCode: string, code: string): RegionEntry | undefined {
  return gazetteer().regionByCountryAndCode.get(regionKey(countryCode, code));
}

function toResolved(input: string, place: Place): ResolvedLocation {
  const countryCode = placeCountry(place);
  const country = countryName(countryCode) ?? countryCode;
  if (place.kind === 'country') return { input, name: country, kind: 'country', countryCode };
  if (place.kind === 'region') {
    const { region } = place;
    return {
      input,
      name: `${region.name}, ${country}`,
      kind: 'region',
      countryCode,
      regionCode: region.code,
      region: region.name,
    };
  }
  const { city } = place;
  const region = regionOf(countryCode, city.regionCode);
  // "Tokyo, Tokyo, Japan" says nothing the shorter form does not.
  const showRegion = region && foldText(region.name) !== foldText(city.name);
  return {
    input,
    name: showRegion ? `${city.name}, ${region.name}, ${country}` : `${city.name}, ${country}`,
    kind: 'city',
    countryCode,
    regionCode: city.regionCode,
    region: region?.name,
    city: city.name,
  };
}

/** undefined when the input names no country, region or city the gazetteer knows. */
export function resolveLocation(input: string): ResolvedLocation | undefined {
  if (typeof input !== 'string') return undefined;
  const place = findPlace(input);
  return place ? toResolved(input, place) : undefined;
}

const MAX_SUGGESTIONS = 5;

interface Suggestion {
  label: string;
  distance: number;
  rank: number;
  preference: number;
}

function compareSuggestions(a: Suggestion, b: Suggestion): number {
  return a.distance - b.distance || a.rank - b.rank || a.preference - b.preference || a.label.localeCompare(b.label);
}

/** A name that, sent back as is, resolves to the place meant; qualified with its country when the bare name resolves elsewhere. */
function labelFor(place: Place): string {
  const bare = placeName(place);
  const resolved = findPlace(bare);
  if (
    resolved &&
    placeCountry(resolved) === placeCountry(place) &&
    placeRegionCode(resolved) === placeRegionCode(place) &&
    resolved.kind === place.kind
  ) {
    return bare;
  }
  return toResolved(bare, place).name;
}

function nameSuggestions(folded: string, includeCities: boolean): Suggestion[] {
  const countries = countryIndex();
  const index = gazetteer();
  const tolerance = suggestionTolerance(folded.length);
  const found: Suggestion[] = [];

  for (const [key, country] of countries.suggestionKeys) {
    const distance = boundedEditDistance(folded, key, tolerance);
    if (distance <= tolerance)
      found.push({ label: country.name, distance, rank: 0, preference: preferenceOf(country.code) });
  }
  for (const [key, regions] of index.regionsByKey) {
    const distance = boundedEditDistance(folded, key, tolerance);
    if (distance > tolerance) continue;
    for (const region of regions) {
      const place: Place = { kind: 'region', region };
      found.push({
        label: labelFor(place),
        distance,
        rank: placeRank(place),
        preference: preferenceOf(region.countryCode),
      });
    }
  }
  if (includeCities) {
    for (let length = folded.length - tolerance; length <= folded.length + tolerance; length++) {
      for (const key of index.cityKeysByLength.get(length) ?? []) {
        const distance = boundedEditDistance(folded, key, tolerance);
        if (distance > tolerance) continue;
        const place = bestPlace(key, []);
        if (!place) continue;
        found.push({
          label: labelFor(place),
          distance,
          rank: placeRank(place),
          preference: preferenceOf(placeCountry(place)),
        });
      }
    }
  }
  // A region code typed alone ("TX") is close to its region's name in intent, if not in spelling.
  if (folded.length <= 3) {
    for (const region of index.regionsByCodeKey.get(folded) ?? []) {
      if (!region.hasCities) continue;
      const place: Place = { kind: 'region', region };
      found.push({ label: labelFor(place), distance: 1, rank: 2, preference: preferenceOf(region.countryCode) });
    }
  }
  return found;
}

function placeIdentity(place: Place): string {
  return `${place.kind}|${placeCountry(place)}|${placeRegionCode(place)}|${placeName(place)}`;
}

/** Best first, one label per place: "Berlin" and "Berlin, Germany" both lead to the city, so only the first is kept. */
function topLabels(found: Suggestion[], limit: number): string[] {
  found.sort(compareSuggestions);
  const labels: string[] = [];
  const places = new Set<string>();
  for (const suggestion of found) {
    const place = findPlace(suggestion.label);
    if (!place) continue;
    const identity = placeIdentity(place);
    if (places.has(identity)) continue;
    places.add(identity);
    labels.push(suggestion.label);
    if (labels.length === limit) break;
  }
  return labels;
}

/** Near misses for an input that does not resolve, best first; empty when nothing is close. */
export function suggestLocations(input: string): string[] {
  const parts = input
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
  if (parts.length === 0) return [];
  if (parts.length === 1) return topLabels(nameSuggestions(foldText(parts[0]), true), MAX_SUGGESTIONS);

  // "Pariss, France" or "Paris, Frnace": fix each part on its own, then keep the combinations that resolve.
  const [head, ...qualifiers] = parts;
  const headOptions = findPlace(head)
    ? [head]
    : topLabels(nameSuggestions(foldText(head), true), 3).map((label) => label.split(',')[0]);
  const qualifierOptions = qualifiers.map((part) =>
    qualifierFor(foldText(part)) ? [part] : topLabels(nameSuggestions(foldText(part), false), 3),
  );
  let combinations = headOptions.map((option) => [option]);
  for (const options of qualifierOptions) {
    combinations = combinations.flatMap((prefix) => options.map((option) => [...prefix, option]));
  }
  const labels: string[] = [];
  for (const combination of combinations) {
    const label = combination.join(', ');
    if (label !== input && findPlace(label) && !labels.includes(label)) labels.push(label);
    if (labels.length === MAX_SUGGESTIONS) break;
  }
  return labels;
}

export function validateLocations(inputs: readonly string[]): LocationValidation {
  const result: LocationValidation = { valid: [], invalid: [] };
  for (const input of inputs) {
    const resolved = typeof input === 'string' ? resolveLocation(input) : undefined;
    if (resolved) result.valid.push(resolved);
    else result.invalid.push({ input, suggestions: typeof input === 'string' ? suggestLocations(input) : [] });
  }
  return result;
}

function canonicalCityKey(countryCode: string, city: string): string {
  const folded = foldText(city);
  return gazetteer().cityCanonicalKey.get(`${countryCode}|${folded}`) ?? folded;
}

/** Region codes of the cities of that name in the country (several when the name is shared). */
function regionsOfCity(countryCode: string, city: string): Set<string> {
  const index = gazetteer();
  const regions = new Set<string>();
  const keys = new Set([foldText(city), canonicalCityKey(countryCode, city)]);
  for (const key of keys) {
    for (const entry of index.citiesByKey.get(key) ?? []) {
      if (entry.countryCode === countryCode) regions.add(entry.regionCode);
    }
  }
  return regions;
}

function regionNamed(countryCode: string, value: string, regionCode: string): boolean {
  const folded = foldText(value);
  if (folded === foldText(regionCode)) return true;
  const region = regionOf(countryCode, regionCode);
  return region !== undefined && folded === foldText(region.name);
}

/**
 * Whether a person (or company HQ) is inside a location filter. Country:
 * same country code. Region: same country, and the person's region (name or
 * code) is it, or else their city lies in it (a city name shared by several
 * regions counts for each), or else their free-text location resolves inside
 * it. City: same country and the same city name, case- and
 * accent-insensitively and through known aliases ("NYC", "New York"); when
 * the person's region is known it must agree, which tells Portland, Oregon
 * from Portland, Maine.
 */
export function locationMatches(location: ResolvedLocation, person: PersonLocation): boolean {
  const countryCode = person.countryCode?.trim().toUpperCase();
  if (!countryCode || countryCode !== location.countryCode) return false;
  if (location.kind === 'country') return true;

  const regionCode = location.regionCode ?? '';
  if (location.kind === 'region') {
    if (person.region && regionNamed(countryCode, person.region, regionCode)) return true;
    if (person.city && regionsOfCity(countryCode, person.city).has(regionCode)) return true;
    if (person.location) {
      const resolved = resolveLocation(person.location);
      if (
        resolved &&
        resolved.kind !== 'country' &&
        resolved.countryCode === countryCode &&
        resolved.regionCode === regionCode
      ) {
        return true;
      }
    }
    return false;
  }

  const city = person.city?.trim() ? person.city : person.location?.split(',')[0];
  if (!city || !location.city) return false;
  if (canonicalCityKey(countryCode, city) !== canonicalCityKey(countryCode, location.city)) return false;
  if (person.region) {
    const qualifier = qualifierFor(foldText(person.region));
    const inCountry = qualifier ? [...qualifier.regions].filter((key) => key.startsWith(`${countryCode}|`)) : [];
    // A region the gazetteer does not know says nothing either way.
    if (inCountry.length > 0) return inCountry.includes(regionKey(countryCode, regionCode));
  }
  return true;
}

export function countryName(code: string): string | undefined {
  return countryIndex().byCode.get(code.trim().toUpperCase())?.name;
}

export function listCountries(): { code: string; name: string }[] {
  return [...countryIndex().byCode.values()].map(({ code, name }) => ({ code, name }));
}

function toGazetteerCity(entry: CityEntry): GazetteerCity {
  return {
    name: entry.name,
    countryCode: entry.countryCode,
    regionCode: entry.regionCode,
    region: regionOf(entry.countryCode, entry.regionCode)?.name ?? '',
  };
}

/** Every city of a country, major cities first; [] for an unknown code. */
export function citiesOf(countryCode: string): GazetteerCity[] {
  return (gazetteer().citiesByCountry.get(countryCode.trim().toUpperCase()) ?? []).map(toGazetteerCity);
}

/** The curated major cities of a country: what realistic demo data should mostly use. */
export function majorCitiesOf(countryCode: string): GazetteerCity[] {
  return (gazetteer().majorByCountry.get(countryCode.trim().toUpperCase()) ?? []).map(toGazetteerCity);
}
