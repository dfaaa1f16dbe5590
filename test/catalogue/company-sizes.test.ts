import { bandRange, COMPANY_SIZE_BANDS, isCompanySizeBand, sizeBandOf } from '../../src/catalogue/company-sizes';

describe('company size bands', () => {
  it('lists the nine bands of the spec in order', () => {
    expect(COMPANY_SIZE_BANDS).toEqual([
      'Self-employed',
      '1-10',
      '11-50',
      '51-200',
      '201-500',
      '501-1000',
      '1001-5000',
      '5001-10000',
      '10001+',
    ]);
  });

  it.each([
    [0, 'Self-employed'],
    [1, 'Self-employed'],
    [2, '1-10'],
    [10, '1-10'],
    [11, '11-50'],
    [42, '11-50'],
    [50, '11-50'],
    [51, '51-200'],
    [200, '51-200'],
    [201, '201-500'],
    [1000, '501-1000'],
    [1001, '1001-5000'],
    [5000, '1001-5000'],
    [10000, '5001-10000'],
    [10001, '10001+'],
    [250000, '10001+'],
  ])('puts %d employees in %s', (count, band) => {
    expect(sizeBandOf(count)).toBe(band);
  });

  it('floors fractional counts', () => {
    expect(sizeBandOf(50.9)).toBe('11-50');
  });

  it('refuses counts that are not sizes', () => {
    expect(() => sizeBandOf(-1)).toThrow(RangeError);
    expect(() => sizeBandOf(Number.NaN)).toThrow(RangeError);
    expect(() => sizeBandOf(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('gives ranges that are the exact inverse of sizeBandOf', () => {
    let expectedMin = 0;
    for (const band of COMPANY_SIZE_BANDS) {
      const { min, max } = bandRange(band);
      expect(min).toBe(expectedMin);
      expect(sizeBandOf(min)).toBe(band);
      if (max === null) {
        expect(band).toBe('10001+');
      } else {
        expect(sizeBandOf(max)).toBe(band);
        expectedMin = max + 1;
      }
    }
    expect(bandRange('11-50')).toEqual({ min: 11, max: 50 });
    expect(bandRange('10001+')).toEqual({ min: 10001, max: null });
  });

  it('hands out copies of the ranges', () => {
    bandRange('1-10').min = 99;
    expect(bandRange('1-10').min).toBe(2);
  });

  it('recognises band labels exactly', () => {
    expect(isCompanySizeBand('51-200')).toBe(true);
    expect(isCompanySizeBand('51 - 200')).toBe(false);
    expect(isCompanySizeBand('self-employed')).toBe(false);
    expect(isCompanySizeBand(42)).toBe(false);
  });
});
