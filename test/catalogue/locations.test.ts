import {
  citiesOf,
  countryName,
  listCountries,
  locationMatches,
  majorCitiesOf,
  resolveLocation,
  suggestLocations,
  validateLocations,
  warmUpLocations,
} from '../../src/catalogue/locations';

const resolved = (input: string) => {
  const location = resolveLocation(input);
  if (!location) throw new Error(`${input} did not resolve`);
  return location;
};

beforeAll(() => warmUpLocations());

describe('resolving locations', () => {
  it.each(['France', 'france', 'FRANCE', 'FR', 'fr', ' France '])('reads %p as the country France', (input) => {
    expect(resolveLocation(input)).toEqual({ input, name: 'France', kind: 'country', countryCode: 'FR' });
  });

  it.each([
    ['US', 'US'],
    ['USA', 'US'],
    ['U.S.A.', 'US'],
    ['United States', 'US'],
    ['United States of America', 'US'],
    ['UK', 'GB'],
    ['United Kingdom', 'GB'],
    ['Great Britain', 'GB'],
    ['UAE', 'AE'],
    ['Holland', 'NL'],
    ['Deutschland', 'DE'],
    ['Ivory Coast', 'CI'],
    ["Côte d'Ivoire", 'CI'],
    ['Cote dIvoire', 'CI'],
    ['South Korea', 'KR'],
    ['Hong Kong', 'HK'],
    ['Singapore', 'SG'],
  ])('reads %p as the country %s', (input, code) => {
    expect(resolved(input)).toMatchObject({ kind: 'country', countryCode: code });
  });

  it('gives countries readable names', () => {
    expect(resolved('US').name).toBe('United States');
    expect(resolved('GB').name).toBe('United Kingdom');
    expect(resolved('HK').name).toBe('Hong Kong');
    expect(resolved('Antigua and Barbuda').name).toBe('Antigua and Barbuda');
  });

  it('reads regions', () => {
    expect(resolved('California')).toEqual({
      input: 'California',
      name: 'California, United States',
      kind: 'region',
      countryCode: 'US',
      regionCode: 'CA',
      region: 'California',
    });
    expect(resolved('bavaria')).toMatchObject({ kind: 'region', countryCode: 'DE', regionCode: 'BY' });
    expect(resolved('England')).toMatchObject({ kind: 'region', countryCode: 'GB', regionCode: 'ENG' });
    expect(resolved('Ile de France')).toMatchObject({ kind: 'region', countryCode: 'FR', regionCode: 'IDF' });
    expect(resolved('Texas, United States')).toMatchObject({ kind: 'region', countryCode: 'US', regionCode: 'TX' });
  });

  it('reads cities, bare or qualified by country or region', () => {
    expect(resolved('Paris')).toMatchObject({ kind: 'city', countryCode: 'FR', city: 'Paris', regionCode: 'IDF' });
    expect(resolved('Paris, FR')).toMatchObject({ kind: 'city', countryCode: 'FR', city: 'Paris' });
    expect(resolved('Paris, France')).toMatchObject({ kind: 'city', countryCode: 'FR', city: 'Paris' });
    expect(resolved('Paris, Texas')).toMatchObject({
      kind: 'city',
      countryCode: 'US',
      regionCode: 'TX',
      city: 'Paris',
    });
    expect(resolved('Austin, Texas')).toEqual({
      input: 'Austin, Texas',
      name: 'Austin, Texas, United States',
      kind: 'city',
      countryCode: 'US',
      regionCode: 'TX',
      region: 'Texas',
      city: 'Austin',
    });
    expect(resolved('Austin, TX')).toMatchObject({ countryCode: 'US', regionCode: 'TX', city: 'Austin' });
    expect(resolved('London, Ontario')).toMatchObject({ countryCode: 'CA', regionCode: 'ON', city: 'London' });
    expect(resolved('San Francisco, CA')).toMatchObject({ countryCode: 'US', regionCode: 'CA', city: 'San Francisco' });
  });

  it('uses a qualifier that is a country code or a region code, whichever has the city', () => {
    // ME is Montenegro, which has no Portland; Maine has one.
    expect(resolved('Portland, ME')).toMatchObject({ countryCode: 'US', regionCode: 'ME', city: 'Portland' });
    expect(resolved('Toronto, CA')).toMatchObject({ countryCode: 'CA', regionCode: 'ON', city: 'Toronto' });
  });

  it('is accent-insensitive and knows common city aliases', () => {
    expect(resolved('Zurich')).toMatchObject({ countryCode: 'CH', city: 'Zurich' });
    expect(resolved('Zürich')).toMatchObject({ countryCode: 'CH', city: 'Zurich' });
    expect(resolved('Sao Paulo')).toMatchObject({ countryCode: 'BR', city: 'São Paulo' });
    expect(resolved('München')).toMatchObject({ countryCode: 'DE', city: 'Munich' });
    expect(resolved('Bangalore')).toMatchObject({ countryCode: 'IN', city: 'Bengaluru' });
    expect(resolved('NYC')).toMatchObject({ countryCode: 'US', regionCode: 'NY', city: 'New York City' });
    expect(resolved('Washington, D.C.')).toMatchObject({ countryCode: 'US', regionCode: 'DC', kind: 'city' });
  });

  it('settles ambiguous names by the documented precedence', () => {
    expect(resolved('London')).toMatchObject({ countryCode: 'GB', city: 'London' });
    expect(resolved('Georgia')).toMatchObject({ kind: 'country', countryCode: 'GE' });
    expect(resolved('Georgia, USA')).toMatchObject({ kind: 'region', countryCode: 'US', regionCode: 'GA' });
    expect(resolved('Washington')).toMatchObject({ kind: 'region', countryCode: 'US', regionCode: 'WA' });
    expect(resolved('New York')).toMatchObject({ kind: 'region', countryCode: 'US', regionCode: 'NY' });
    expect(resolved('Quebec')).toMatchObject({ kind: 'region', countryCode: 'CA', regionCode: 'QC' });
    expect(resolved('Coventry')).toMatchObject({ kind: 'city', countryCode: 'GB' });
    expect(resolved('Punjab')).toMatchObject({ kind: 'region', countryCode: 'IN' });
    expect(resolved('Portland')).toMatchObject({ countryCode: 'US', regionCode: 'OR' });
  });

  it('round-trips its own canonical names', () => {
    for (const input of [
      'France',
      'California',
      'Austin, Texas',
      'Paris',
      'Tokyo',
      'Coventry',
      'Portland, ME',
      'Georgia, US',
    ]) {
      const first = resolved(input);
      const again = resolved(first.name);
      expect({ ...again, input }).toEqual(first);
    }
  });

  it('rejects what it does not know', () => {
    expect(resolveLocation('Frnace')).toBeUndefined();
    expect(resolveLocation('Atlantis Prime')).toBeUndefined();
    expect(resolveLocation('')).toBeUndefined();
    expect(resolveLocation('   ')).toBeUndefined();
    expect(resolveLocation('Paris, Narnia')).toBeUndefined();
    expect(resolveLocation('Austin, France')).toBeUndefined();
  });

  it('answers in well under a millisecond once warm', () => {
    const inputs = ['France', 'California', 'Paris, FR', 'Austin, Texas', 'Zürich', 'Portland, ME', 'Nowhere Land'];
    const rounds = 2000;
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds; i++) resolveLocation(inputs[i % inputs.length]);
    const perCallMs = Number(process.hrtime.bigint() - started) / rounds / 1e6;
    expect(perCallMs).toBeLessThan(1);
  });
});

describe('validating locations', () => {
  it('splits valid from invalid and suggests near misses', () => {
    const result = validateLocations(['France', 'Frnace', 'Calfornia', 'Paris, FR', 'Xqzzyv Qwrt']);
    expect(result.valid.map((location) => [location.input, location.kind, location.countryCode])).toEqual([
      ['France', 'country', 'FR'],
      ['Paris, FR', 'city', 'FR'],
    ]);
    expect(result.invalid.map((entry) => entry.input)).toEqual(['Frnace', 'Calfornia', 'Xqzzyv Qwrt']);
    expect(result.invalid[0].suggestions[0]).toBe('France');
    expect(result.invalid[1].suggestions[0]).toBe('California');
    expect(result.invalid[2].suggestions).toEqual([]);
  });

  it('suggests names that resolve, at most five, without duplicates', () => {
    for (const input of ['Londn', 'Berln', 'Germny', 'Untied States', 'Bavria']) {
      const suggestions = suggestLocations(input);
      expect(suggestions.length).toBeGreaterThan(0);
      expect(suggestions.length).toBeLessThanOrEqual(5);
      expect(new Set(suggestions).size).toBe(suggestions.length);
      for (const suggestion of suggestions) expect(resolveLocation(suggestion)).toBeDefined();
    }
    expect(suggestLocations('Londn')[0]).toBe('London');
    expect(suggestLocations('Untied States')[0]).toBe('United States');
  });

  it('fixes one part of a qualified name at a time', () => {
    expect(suggestLocations('Paris, Frnace')).toContain('Paris, France');
    expect(suggestLocations('Pariss, France')).toContain('Paris, France');
  });

  it('offers the region for a bare region code', () => {
    expect(suggestLocations('TX')).toContain('Texas');
  });
});

describe('matching people against a location', () => {
  it('matches a country by country code', () => {
    const france = resolved('France');
    expect(locationMatches(france, { countryCode: 'FR' })).toBe(true);
    expect(locationMatches(france, { countryCode: 'fr', city: 'Lyon' })).toBe(true);
    expect(locationMatches(france, { countryCode: 'BE', city: 'Paris' })).toBe(false);
    expect(locationMatches(france, { countryCode: '' })).toBe(false);
  });

  it('matches a region by region, else by the region of the city, else by the free-text location', () => {
    const california = resolved('California');
    expect(locationMatches(california, { countryCode: 'US', region: 'CA' })).toBe(true);
    expect(locationMatches(california, { countryCode: 'US', region: 'california' })).toBe(true);
    expect(locationMatches(california, { countryCode: 'US', city: 'San Francisco' })).toBe(true);
    expect(locationMatches(california, { countryCode: 'US', location: 'Palo Alto, California, United States' })).toBe(
      true,
    );
    expect(locationMatches(california, { countryCode: 'US', city: 'Austin' })).toBe(false);
    expect(locationMatches(california, { countryCode: 'CA', region: 'CA' })).toBe(false);
    expect(locationMatches(california, { countryCode: 'US' })).toBe(false);
  });

  it('matches a city by country and name, case- and accent-insensitively and through aliases', () => {
    const paris = resolved('Paris, France');
    expect(locationMatches(paris, { countryCode: 'FR', city: 'paris' })).toBe(true);
    expect(locationMatches(paris, { countryCode: 'US', city: 'Paris' })).toBe(false);
    expect(locationMatches(paris, { countryCode: 'FR', city: 'Lyon' })).toBe(false);
    expect(locationMatches(resolved('Zurich'), { countryCode: 'CH', city: 'Zürich' })).toBe(true);
    expect(locationMatches(resolved('NYC'), { countryCode: 'US', city: 'New York' })).toBe(true);
    expect(locationMatches(resolved('Munich'), { countryCode: 'DE', city: 'München' })).toBe(true);
    expect(locationMatches(paris, { countryCode: 'FR', location: 'Paris, Île-de-France, France' })).toBe(true);
  });

  it('uses a known region of the person to tell same-named cities apart', () => {
    const portlandMaine = resolved('Portland, Maine');
    expect(locationMatches(portlandMaine, { countryCode: 'US', city: 'Portland', region: 'ME' })).toBe(true);
    expect(locationMatches(portlandMaine, { countryCode: 'US', city: 'Portland', region: 'Oregon' })).toBe(false);
    expect(locationMatches(portlandMaine, { countryCode: 'US', city: 'Portland' })).toBe(true);
  });

  it('puts a city in every region that has a city of that name', () => {
    expect(locationMatches(resolved('New York'), { countryCode: 'US', city: 'New York' })).toBe(true);
    expect(locationMatches(resolved('England'), { countryCode: 'GB', city: 'London' })).toBe(true);
    expect(locationMatches(resolved('Scotland'), { countryCode: 'GB', city: 'London' })).toBe(false);
  });
});

describe('gazetteer listings', () => {
  it('names countries by code', () => {
    expect(countryName('FR')).toBe('France');
    expect(countryName('us')).toBe('United States');
    expect(countryName('XX')).toBeUndefined();
    expect(listCountries().length).toBeGreaterThan(240);
  });

  it('lists the cities of a country, major ones first', () => {
    const french = citiesOf('FR');
    expect(french.length).toBeGreaterThan(1000);
    expect(french[0]).toEqual({ name: 'Paris', countryCode: 'FR', regionCode: 'IDF', region: 'Île-de-France' });
    expect(french.every((city) => city.countryCode === 'FR')).toBe(true);
    expect(citiesOf('XX')).toEqual([]);
  });

  it('lists major cities that all resolve to themselves', () => {
    const majors = ['US', 'GB', 'DE', 'FR', 'IN', 'AU', 'BR'].flatMap((code) => majorCitiesOf(code));
    expect(majors.length).toBeGreaterThan(50);
    for (const city of majors) {
      expect(city.region).not.toBe('');
      const location = resolved(`${city.name}, ${city.countryCode}`);
      expect([location.city, location.regionCode]).toEqual([city.name, city.regionCode]);
    }
  });
});
