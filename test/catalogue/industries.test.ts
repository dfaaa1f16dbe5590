import {
  categoryOf,
  currentIndustryName,
  expandIndustryFilters,
  findIndustry,
  industriesInCategory,
  industryCategories,
  isCategory,
  isKnownIndustry,
  listIndustries,
  redundantIndustryFilters,
  suggestIndustries,
} from '../../src/catalogue/industries';

describe('industry taxonomy', () => {
  it('has the 20 top-level LinkedIn V2 categories', () => {
    const categories = industryCategories();
    expect(categories).toHaveLength(20);
    expect(categories).toEqual(
      expect.arrayContaining([
        'Technology, Information and Media',
        'Financial Services',
        'Manufacturing',
        'Hospitals and Health Care',
        'Professional Services',
        'Transportation, Logistics, Supply Chain and Storage',
        'Wholesale',
      ]),
    );
  });

  it('has well over 150 uniquely named industries, each in a category', () => {
    const industries = listIndustries();
    expect(industries.length).toBeGreaterThan(150);
    expect(new Set(industries.map((industry) => industry.name)).size).toBe(industries.length);
    for (const industry of industries) expect(isCategory(industry.category)).toBe(true);
  });

  it('places industries in their category', () => {
    expect(findIndustry('Software Development')).toEqual({
      name: 'Software Development',
      category: 'Technology, Information and Media',
      isCategory: false,
    });
    expect(categoryOf('Venture Capital and Private Equity Principals')).toBe('Financial Services');
    expect(categoryOf('IT Services and IT Consulting')).toBe('Professional Services');
    expect(categoryOf('Hospitals')).toBe('Hospitals and Health Care');
    expect(industriesInCategory('Financial Services')).toEqual(
      expect.arrayContaining(['Banking', 'Venture Capital and Private Equity Principals', 'Insurance']),
    );
    expect(industriesInCategory('Financial Services')).not.toContain('Software Development');
    expect(industriesInCategory('Banking')).toEqual([]);
  });

  it('treats a category as an industry of its own category', () => {
    expect(isKnownIndustry('Manufacturing')).toBe(true);
    expect(findIndustry('Manufacturing')).toEqual({
      name: 'Manufacturing',
      category: 'Manufacturing',
      isCategory: true,
    });
    expect(isCategory('Manufacturing')).toBe(true);
    expect(isCategory('Banking')).toBe(false);
  });

  it('matches names exactly', () => {
    expect(isKnownIndustry('Software Development')).toBe(true);
    expect(isKnownIndustry('software development')).toBe(false);
    expect(isKnownIndustry('Software Development ')).toBe(false);
    expect(isKnownIndustry('Quantum Basket Weaving')).toBe(false);
  });

  it('searches names and categories case-insensitively in a stable order', () => {
    const found = listIndustries('software');
    expect(found.map((industry) => industry.name)).toEqual(
      expect.arrayContaining(['Software Development', 'IT System Custom Software Development']),
    );
    expect(listIndustries('SOFTWARE')).toEqual(found);
    const byCategory = listIndustries('financial services');
    expect(byCategory.map((industry) => industry.name)).toEqual(
      expect.arrayContaining(['Banking', 'Insurance Carriers']),
    );
    const all = listIndustries();
    const positions = found.map((industry) => all.findIndex((candidate) => candidate.name === industry.name));
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    expect(listIndustries('zzzz')).toEqual([]);
  });

  it('expands categories used as filters', () => {
    const accepted = expandIndustryFilters(['Financial Services', 'Software Development']);
    expect(accepted.has('Financial Services')).toBe(true);
    expect(accepted.has('Banking')).toBe(true);
    expect(accepted.has('Software Development')).toBe(true);
    expect(accepted.has('IT Services and IT Consulting')).toBe(false);
  });

  it('spots industries sent together with their own category', () => {
    expect(redundantIndustryFilters(['Financial Services', 'Banking', 'Software Development', 'Insurance'])).toEqual([
      { category: 'Financial Services', industries: ['Banking', 'Insurance'] },
    ]);
    expect(redundantIndustryFilters(['Banking', 'Software Development'])).toEqual([]);
  });

  it('suggests close names for unknown ones', () => {
    expect(suggestIndustries('software development')[0]).toBe('Software Development');
    expect(suggestIndustries('Sofware Developmnt')[0]).toBe('Software Development');
    expect(suggestIndustries('Banking ')).toContain('Banking');
    expect(suggestIndustries('Computer Software')[0]).toBe('Software Development');
    expect(suggestIndustries('Hospital & Health Care')[0]).toBe('Hospitals and Health Care');
    expect(suggestIndustries('Quantum Basket Weaving')).toEqual([]);
    expect(suggestIndustries('')).toEqual([]);
    expect(suggestIndustries('Software').length).toBeLessThanOrEqual(5);
  });

  it('suggests the closest name containing a truncated one, not the first in the list (issue 38)', () => {
    expect(suggestIndustries('Softwar')[0]).toBe('Software Development');
    expect(suggestIndustries('Softwar')).toContain('IT System Custom Software Development');
  });

  it('maps first-generation names to their V2 successor, and only to known names', () => {
    expect(currentIndustryName('Computer Software')).toBe('Software Development');
    expect(currentIndustryName('information technology & services')).toBe('IT Services and IT Consulting');
    expect(currentIndustryName('Banking')).toBe('Banking');
    expect(currentIndustryName('Quantum Basket Weaving')).toBeUndefined();
    for (const legacy of [
      'Internet',
      'Marketing & Advertising',
      'Staffing & Recruiting',
      'Oil & Energy',
      'Consumer Goods',
    ]) {
      const current = currentIndustryName(legacy);
      expect(current && isKnownIndustry(current)).toBe(true);
    }
  });
});
