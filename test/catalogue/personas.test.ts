import {
  findPersona,
  isKnownPersona,
  listPersonas,
  matchCustomTitle,
  matchPersona,
  SENIORITIES,
  DEPARTMENTS,
  titleMatchesCustom,
} from '../../src/catalogue/personas';

const personaOf = (title: string) => matchPersona(title)?.name;

describe('persona catalogue', () => {
  it('has about forty uniquely named personas with a department, seniority and titles', () => {
    const personas = listPersonas();
    expect(personas.length).toBeGreaterThanOrEqual(40);
    expect(new Set(personas.map((persona) => persona.name)).size).toBe(personas.length);
    for (const persona of personas) {
      expect(DEPARTMENTS).toContain(persona.department);
      expect(SENIORITIES).toContain(persona.seniority);
      expect(persona.titles).toContain(persona.name);
      expect(persona.titles.length).toBeGreaterThan(1);
    }
  });

  it('maps every title to its own persona (no title is claimed by two personas)', () => {
    for (const persona of listPersonas()) {
      for (const title of persona.titles) expect([title, personaOf(title)]).toEqual([title, persona.name]);
    }
  });

  it('covers the usual buyer roles', () => {
    for (const name of [
      'Chief Technology Officer',
      'Chief Financial Officer',
      'VP of Sales',
      'Head of Marketing',
      'Software Engineer',
      'Data Scientist',
      'HR Manager',
      'Founder',
    ]) {
      expect(isKnownPersona(name)).toBe(true);
    }
  });

  it('finds personas by exact name only', () => {
    expect(findPersona('VP of Sales')).toMatchObject({ name: 'VP of Sales', department: 'sales', seniority: 'vp' });
    expect(findPersona('vp of sales')).toBeUndefined();
    expect(findPersona('Astronaut')).toBeUndefined();
  });

  it('hands out copies', () => {
    findPersona('Founder')!.titles.push('Emperor');
    expect(findPersona('Founder')!.titles).not.toContain('Emperor');
  });

  it.each([
    ['VP of Sales', 'VP of Sales'],
    ['Vice President, Sales EMEA', 'VP of Sales'],
    ['vp sales', 'VP of Sales'],
    ['SVP, Global Sales', 'VP of Sales'],
    ['CTO', 'Chief Technology Officer'],
    ['Acting CTO & Co-Founder', 'Founder'],
    ['Chief Technology Officer', 'Chief Technology Officer'],
    ['CFO', 'Chief Financial Officer'],
    ['President & CEO', 'Chief Executive Officer'],
    ['Head of Marketing', 'Head of Marketing'],
    ['Head of Sales, DACH', 'Head of Sales'],
    ['Sr. Software Engineer', 'Software Engineer'],
    ['Senior Full-Stack Developer', 'Software Engineer'],
    ['Data Scientist II', 'Data Scientist'],
    ['HR Manager', 'HR Manager'],
    ['Human Resources Manager', 'HR Manager'],
    ['Co-founder', 'Founder'],
    ['Engineering Manager, Platform', 'Engineering Manager'],
    ['Product Owner', 'Product Manager'],
    ['Business Developer', 'Business Development Manager'],
    ['Directeur Général', 'Chief Executive Officer'],
  ])('matches %s to %s', (title, persona) => {
    expect(personaOf(title)).toBe(persona);
  });

  it('prefers the most specific phrase, so a VP is never the CEO', () => {
    expect(personaOf('VP of Sales Operations')).toBe('Revenue Operations Manager');
    expect(personaOf('Vice President of Engineering')).toBe('VP of Engineering');
    expect(personaOf('Vice President')).toBeUndefined();
    expect(personaOf('Sales Operations Manager')).toBe('Revenue Operations Manager');
    expect(personaOf('Talent Acquisition Manager')).toBe('HR Manager');
    expect(personaOf('Business Development Representative')).toBe('Sales Development Representative');
  });

  it('matches whole words only', () => {
    expect(personaOf('Director')).toBeUndefined();
    expect(personaOf('Ceonomics Lecturer')).toBeUndefined();
    expect(personaOf('Janitor')).toBeUndefined();
    expect(personaOf('')).toBeUndefined();
  });
});

describe('custom titles', () => {
  it('matches case-insensitively on word starts', () => {
    expect(titleMatchesCustom('Head of Growth Marketing', ['head of growth'])).toBe(true);
    expect(titleMatchesCustom('Senior Engineering Manager', ['Engineer'])).toBe(true);
    expect(titleMatchesCustom('Chief Revenue Officer', ['revenue'])).toBe(true);
    expect(titleMatchesCustom('Directeur Général', ['directeur general'])).toBe(true);
  });

  it('does not match inside a word or on absent titles', () => {
    expect(titleMatchesCustom('Director of Engineering', ['CTO'])).toBe(false);
    expect(titleMatchesCustom('Account Executive', ['Marketing', 'Finance'])).toBe(false);
    expect(titleMatchesCustom('Account Executive', [])).toBe(false);
    expect(titleMatchesCustom('Account Executive', [''])).toBe(false);
  });

  it('tells which custom title matched', () => {
    expect(matchCustomTitle('Revenue Ops Lead', ['sales', 'Revenue Ops'])).toBe('Revenue Ops');
    expect(matchCustomTitle('Plumber', ['Revenue Ops'])).toBeUndefined();
  });
});
