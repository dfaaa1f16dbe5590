/**
 * Buyer personas: the values of `jobTitles` (job changes) and `targetPersonas`
 * (account watchlist), and the `contact.matched_persona` of a lead.
 *
 * A persona's `titles` are the job titles it covers. A free job title is
 * mapped to a persona by phrase matching on whole words after normalisation
 * (case, accents, punctuation, "Vice President" = "VP", "of"/"the" ignored),
 * and the longest matching phrase wins: "VP of Sales Operations" contains both
 * "vp sales" and the longer "sales operations", so it is Revenue Operations;
 * and since "Vice President" is read as "VP" first, it can never be CEO
 * through the word "president".
 */
import { foldText } from './text-matching';

export const SENIORITIES = ['founder', 'c_level', 'vp', 'director', 'manager', 'individual_contributor'] as const;
export type Seniority = (typeof SENIORITIES)[number];

export const DEPARTMENTS = [
  'executive',
  'engineering',
  'product',
  'design',
  'data',
  'it',
  'security',
  'sales',
  'marketing',
  'customer_success',
  'operations',
  'finance',
  'human_resources',
  'legal',
  'procurement',
] as const;
export type Department = (typeof DEPARTMENTS)[number];

export interface Persona {
  name: string;
  department: Department;
  seniority: Seniority;
  titles: string[];
}

type PersonaRow = readonly [name: string, department: Department, seniority: Seniority, titles: readonly string[]];

// The persona's own name is always one of its titles; it is added when the catalogue is built.
const ROWS: readonly PersonaRow[] = [
  [
    'Founder',
    'executive',
    'founder',
    ['Co-Founder', 'Cofounder', 'Founding Partner', 'Owner', 'Business Owner', 'Co-Owner'],
  ],
  [
    'Chief Executive Officer',
    'executive',
    'c_level',
    [
      'CEO',
      'Chief Executive',
      'President',
      'Managing Director',
      'General Manager',
      'Managing Partner',
      'Geschäftsführer',
      'Directeur Général',
    ],
  ],
  ['Chief Operating Officer', 'operations', 'c_level', ['COO', 'Chief Operations Officer']],
  ['Chief Financial Officer', 'finance', 'c_level', ['CFO', 'Chief Finance Officer']],
  ['Chief Technology Officer', 'engineering', 'c_level', ['CTO', 'Chief Technical Officer']],
  [
    'Chief Information Officer',
    'it',
    'c_level',
    ['CIO', 'Chief Digital Officer', 'Chief Digital and Information Officer'],
  ],
  [
    'Chief Information Security Officer',
    'security',
    'c_level',
    [
      'CISO',
      'Chief Security Officer',
      'Head of Information Security',
      'Head of Security',
      'Director of Information Security',
      'VP Security',
    ],
  ],
  ['Chief Marketing Officer', 'marketing', 'c_level', ['CMO', 'Chief Growth Officer', 'Chief Brand Officer']],
  ['Chief Revenue Officer', 'sales', 'c_level', ['CRO', 'Chief Sales Officer', 'Chief Commercial Officer']],
  ['Chief Product Officer', 'product', 'c_level', ['CPO', 'Chief Product and Technology Officer']],
  [
    'Chief Data Officer',
    'data',
    'c_level',
    ['CDO', 'Chief Data and Analytics Officer', 'Chief Analytics Officer', 'Chief AI Officer'],
  ],
  [
    'Chief Human Resources Officer',
    'human_resources',
    'c_level',
    ['CHRO', 'Chief People Officer', 'Chief Talent Officer'],
  ],
  [
    'General Counsel',
    'legal',
    'c_level',
    ['Chief Legal Officer', 'CLO', 'Head of Legal', 'Legal Director', 'Director of Legal'],
  ],
  [
    'Chief Procurement Officer',
    'procurement',
    'c_level',
    [
      'Head of Procurement',
      'Procurement Director',
      'Director of Procurement',
      'Head of Purchasing',
      'Purchasing Director',
      'VP Procurement',
    ],
  ],
  [
    'VP of Sales',
    'sales',
    'vp',
    [
      'VP Sales',
      'SVP Sales',
      'EVP Sales',
      'VP Global Sales',
      'VP Enterprise Sales',
      'VP Worldwide Sales',
      'VP Business Development',
    ],
  ],
  [
    'VP of Marketing',
    'marketing',
    'vp',
    [
      'VP Marketing',
      'SVP Marketing',
      'EVP Marketing',
      'VP Growth',
      'VP Demand Generation',
      'VP Product Marketing',
      'VP Brand',
    ],
  ],
  [
    'VP of Engineering',
    'engineering',
    'vp',
    [
      'VP Engineering',
      'SVP Engineering',
      'EVP Engineering',
      'VP Software Engineering',
      'VP Technology',
      'VP R&D',
      'VP Research and Development',
    ],
  ],
  ['VP of Product', 'product', 'vp', ['VP Product', 'SVP Product', 'VP Product Management']],
  ['VP of Operations', 'operations', 'vp', ['VP Operations', 'SVP Operations', 'EVP Operations']],
  [
    'VP of Finance',
    'finance',
    'vp',
    ['VP Finance', 'SVP Finance', 'EVP Finance', 'VP Financial Planning and Analysis', 'VP FP&A'],
  ],
  [
    'VP of Human Resources',
    'human_resources',
    'vp',
    ['VP HR', 'VP People', 'VP Talent', 'SVP HR', 'VP People Operations'],
  ],
  [
    'VP of Customer Success',
    'customer_success',
    'vp',
    [
      'VP Customer Success',
      'VP Customer Experience',
      'VP Customer Support',
      'VP Client Services',
      'Head of Customer Success',
      'Director of Customer Success',
      'Head of Customer Experience',
      'Head of Support',
      'Director of Customer Support',
    ],
  ],
  [
    'Head of Sales',
    'sales',
    'director',
    [
      'Sales Director',
      'Director of Sales',
      'Regional Sales Director',
      'Head of Business Development',
      'Director of Business Development',
      'Commercial Director',
      'Head of Commercial',
    ],
  ],
  [
    'Head of Marketing',
    'marketing',
    'director',
    [
      'Marketing Director',
      'Director of Marketing',
      'Head of Growth',
      'Director of Growth',
      'Head of Demand Generation',
      'Director of Demand Generation',
      'Head of Brand',
      'Head of Product Marketing',
      'Director of Product Marketing',
      'Head of Digital Marketing',
    ],
  ],
  [
    'Head of Engineering',
    'engineering',
    'director',
    [
      'Engineering Director',
      'Director of Engineering',
      'Director of Software Engineering',
      'Head of Software Engineering',
      'Head of Technology',
      'Technical Director',
      'Head of R&D',
      'Head of Platform',
      'Head of Infrastructure',
    ],
  ],
  [
    'Head of Product',
    'product',
    'director',
    [
      'Product Director',
      'Director of Product',
      'Director of Product Management',
      'Head of Product Management',
      'Head of Design',
      'Design Director',
      'Director of Design',
    ],
  ],
  [
    'Head of Data',
    'data',
    'director',
    [
      'Director of Data',
      'Head of Data Science',
      'Director of Data Science',
      'Head of Analytics',
      'Director of Analytics',
      'Head of AI',
      'Director of AI',
      'Head of Machine Learning',
      'Head of Business Intelligence',
    ],
  ],
  [
    'IT Director',
    'it',
    'director',
    [
      'Director of IT',
      'Head of IT',
      'Director of Information Technology',
      'Head of Information Technology',
      'VP IT',
      'VP Information Technology',
      'IT Manager',
      'Information Technology Manager',
      'Infrastructure Manager',
      'Systems Manager',
    ],
  ],
  [
    'Head of Human Resources',
    'human_resources',
    'director',
    [
      'HR Director',
      'Director of HR',
      'Head of HR',
      'Head of People',
      'People Director',
      'Director of People',
      'Head of Talent',
      'Head of Talent Acquisition',
      'Director of Talent Acquisition',
    ],
  ],
  [
    'Finance Director',
    'finance',
    'director',
    [
      'Director of Finance',
      'Head of Finance',
      'Financial Controller',
      'Finance Controller',
      'Comptroller',
      'Head of FP&A',
      'Director of FP&A',
    ],
  ],
  [
    'Head of Operations',
    'operations',
    'director',
    ['Operations Director', 'Director of Operations', 'Head of Business Operations', 'Director of Business Operations'],
  ],
  [
    'Revenue Operations Manager',
    'operations',
    'manager',
    [
      'Revenue Operations',
      'RevOps',
      'Head of Revenue Operations',
      'Director of Revenue Operations',
      'Sales Operations',
      'Sales Ops',
      'Marketing Operations',
      'Marketing Ops',
      'Sales Operations Manager',
      'GTM Operations',
    ],
  ],
  [
    'Sales Manager',
    'sales',
    'manager',
    [
      'Regional Sales Manager',
      'Area Sales Manager',
      'Inside Sales Manager',
      'Sales Team Lead',
      'Sales Lead',
      'Key Account Manager',
      'National Account Manager',
    ],
  ],
  [
    'Business Development Manager',
    'sales',
    'manager',
    [
      'BDM',
      'Business Development',
      'Business Developer',
      'Partnerships Manager',
      'Partner Manager',
      'Head of Partnerships',
      'Alliances Manager',
      'Channel Manager',
    ],
  ],
  [
    'Marketing Manager',
    'marketing',
    'manager',
    [
      'Digital Marketing Manager',
      'Product Marketing Manager',
      'Content Marketing Manager',
      'Growth Manager',
      'Growth Marketing Manager',
      'Demand Generation Manager',
      'Brand Manager',
      'Performance Marketing Manager',
      'Field Marketing Manager',
      'Marketing Lead',
      'Growth Marketer',
      'Content Manager',
      'SEO Manager',
    ],
  ],
  [
    'Product Manager',
    'product',
    'manager',
    [
      'Senior Product Manager',
      'Group Product Manager',
      'Principal Product Manager',
      'Product Owner',
      'Technical Product Manager',
      'Product Lead',
    ],
  ],
  [
    'Engineering Manager',
    'engineering',
    'manager',
    [
      'Software Engineering Manager',
      'Development Manager',
      'Software Development Manager',
      'Engineering Lead',
      'Tech Lead',
      'Technical Lead',
      'Team Lead Engineering',
    ],
  ],
  [
    'HR Manager',
    'human_resources',
    'manager',
    [
      'Human Resources Manager',
      'HR Business Partner',
      'HRBP',
      'People Manager',
      'People Partner',
      'People Operations Manager',
      'HR Generalist',
      'Talent Acquisition Manager',
      'Recruiting Manager',
    ],
  ],
  [
    'Operations Manager',
    'operations',
    'manager',
    ['Business Operations Manager', 'Office Manager', 'Supply Chain Manager', 'Logistics Manager'],
  ],
  [
    'Project Manager',
    'operations',
    'manager',
    ['Program Manager', 'Project Lead', 'PMO', 'Delivery Manager', 'Scrum Master'],
  ],
  [
    'Customer Success Manager',
    'customer_success',
    'manager',
    [
      'CSM',
      'Account Manager',
      'Client Success Manager',
      'Customer Success Lead',
      'Customer Support Manager',
      'Support Manager',
      'Client Services Manager',
      'Implementation Manager',
    ],
  ],
  [
    'Procurement Manager',
    'procurement',
    'manager',
    [
      'Purchasing Manager',
      'Buyer',
      'Sourcing Manager',
      'Category Manager',
      'Procurement Specialist',
      'Purchasing Agent',
      'Strategic Sourcing Manager',
    ],
  ],
  [
    'Account Executive',
    'sales',
    'individual_contributor',
    [
      'AE',
      'Enterprise Account Executive',
      'Senior Account Executive',
      'Sales Executive',
      'Sales Representative',
      'Sales Rep',
      'Account Director',
      'Sales Consultant',
      'Sales Engineer',
      'Solutions Engineer',
      'Solutions Consultant',
      'Presales Engineer',
    ],
  ],
  [
    'Sales Development Representative',
    'sales',
    'individual_contributor',
    [
      'SDR',
      'BDR',
      'Business Development Representative',
      'Business Development Rep',
      'Sales Development Rep',
      'Inside Sales Representative',
      'Lead Generation Specialist',
    ],
  ],
  [
    'Software Engineer',
    'engineering',
    'individual_contributor',
    [
      'Software Developer',
      'Developer',
      'Programmer',
      'Senior Software Engineer',
      'Staff Engineer',
      'Principal Engineer',
      'Full Stack Engineer',
      'Full Stack Developer',
      'Fullstack Developer',
      'Frontend Engineer',
      'Front End Developer',
      'Frontend Developer',
      'Backend Engineer',
      'Back End Developer',
      'Backend Developer',
      'Mobile Engineer',
      'iOS Developer',
      'Android Developer',
      'Web Developer',
      'Software Architect',
      'Solutions Architect',
      'QA Engineer',
      'Test Engineer',
    ],
  ],
  [
    'DevOps Engineer',
    'engineering',
    'individual_contributor',
    [
      'DevOps',
      'Site Reliability Engineer',
      'SRE',
      'Platform Engineer',
      'Cloud Engineer',
      'Infrastructure Engineer',
      'Cloud Architect',
      'Systems Engineer',
      'Security Engineer',
      'Network Engineer',
      'System Administrator',
      'Sysadmin',
    ],
  ],
  [
    'Data Scientist',
    'data',
    'individual_contributor',
    [
      'Machine Learning Engineer',
      'ML Engineer',
      'AI Engineer',
      'Applied Scientist',
      'Research Scientist',
      'AI Researcher',
      'Deep Learning Engineer',
    ],
  ],
  [
    'Data Engineer',
    'data',
    'individual_contributor',
    ['Analytics Engineer', 'Big Data Engineer', 'ETL Developer', 'Data Architect', 'Data Platform Engineer'],
  ],
  [
    'Data Analyst',
    'data',
    'individual_contributor',
    [
      'Business Intelligence Analyst',
      'BI Analyst',
      'BI Developer',
      'Business Analyst',
      'Analytics Manager',
      'Marketing Analyst',
      'Financial Analyst',
      'Product Analyst',
    ],
  ],
  [
    'Product Designer',
    'design',
    'individual_contributor',
    [
      'UX Designer',
      'UI Designer',
      'UX/UI Designer',
      'UI/UX Designer',
      'UX Researcher',
      'Interaction Designer',
      'Visual Designer',
      'Graphic Designer',
      'Design Lead',
    ],
  ],
  [
    'Recruiter',
    'human_resources',
    'individual_contributor',
    [
      'Technical Recruiter',
      'Talent Acquisition',
      'Talent Acquisition Specialist',
      'Talent Acquisition Partner',
      'Sourcer',
      'Talent Partner',
      'Recruitment Consultant',
      'Headhunter',
    ],
  ],
  [
    'Accountant',
    'finance',
    'individual_contributor',
    [
      'Bookkeeper',
      'Staff Accountant',
      'Senior Accountant',
      'Chartered Accountant',
      'CPA',
      'Accounts Payable Specialist',
      'Accounts Receivable Specialist',
      'Payroll Specialist',
      'Accounting Manager',
    ],
  ],
  [
    'Marketing Specialist',
    'marketing',
    'individual_contributor',
    [
      'Marketing Coordinator',
      'Marketing Executive',
      'Content Marketer',
      'Content Writer',
      'Copywriter',
      'SEO Specialist',
      'Social Media Manager',
      'Community Manager',
      'Marketing Associate',
      'Demand Generation Specialist',
    ],
  ],
];

const PERSONAS: readonly Persona[] = Object.freeze(
  ROWS.map(([name, department, seniority, titles]) =>
    Object.freeze({ name, department, seniority, titles: Object.freeze([name, ...titles]) as string[] }),
  ),
);

const BY_NAME: ReadonlyMap<string, Persona> = new Map(PERSONAS.map((persona) => [persona.name, persona]));

// Spelled-out forms and abbreviations that mean the same in a title.
const TITLE_SYNONYMS: readonly (readonly [RegExp, string])[] = [
  [/\b(senior |executive )?vice president\b/g, 'vp'],
  [/\b[se]vp\b/g, 'vp'],
  [/\bhuman resources\b/g, 'hr'],
  [/\bsr\b/g, 'senior'],
  [/\bjr\b/g, 'junior'],
  [/\bmgr\b/g, 'manager'],
  [/\bdir\b/g, 'director'],
  [/\bco founder\b/g, 'cofounder'],
  [/\bfront end\b/g, 'frontend'],
  [/\bback end\b/g, 'backend'],
  [/\bfull stack\b/g, 'fullstack'],
];

// Words that phrase or scope a title without changing the role: "Head of Sales" = "Head Sales",
// "VP, Global Sales" = "VP Sales".
const FILLER_WORDS = new Set(['of', 'the', 'for', 'a', 'an', 'global', 'worldwide', 'international', 'regional']);

/** The form titles are compared in, padded with spaces so that `includes` is a whole-word match. */
function titleKey(title: string): string {
  let folded = foldText(title);
  for (const [pattern, replacement] of TITLE_SYNONYMS) folded = folded.replace(pattern, replacement);
  const words = folded.split(' ').filter((word) => word && !FILLER_WORDS.has(word));
  return words.length ? ` ${words.join(' ')} ` : '';
}

interface TitlePhrase {
  key: string;
  persona: Persona;
}

/** Longest phrase first, so the first hit is the most specific; catalogue order breaks ties. */
const PHRASES: readonly TitlePhrase[] = (() => {
  const phrases: (TitlePhrase & { order: number })[] = [];
  const seen = new Set<string>();
  let order = 0;
  for (const persona of PERSONAS) {
    for (const title of persona.titles) {
      const key = titleKey(title);
      // A phrase claimed by an earlier persona stays with it: the catalogue order is the tie-break.
      if (!key || seen.has(key)) continue;
      seen.add(key);
      phrases.push({ key, persona, order: order++ });
    }
  }
  phrases.sort((a, b) => b.key.length - a.key.length || a.order - b.order);
  return phrases.map(({ key, persona }) => ({ key, persona }));
})();

function copy(persona: Persona): Persona {
  return { ...persona, titles: [...persona.titles] };
}

export function listPersonas(): Persona[] {
  return PERSONAS.map(copy);
}

/** Exact, case-sensitive: the name is an identifier clients copy from `GET /api/v1/personas`. */
export function findPersona(name: string): Persona | undefined {
  const persona = BY_NAME.get(name);
  return persona ? copy(persona) : undefined;
}

export function isKnownPersona(name: string): boolean {
  return BY_NAME.has(name);
}

/** The persona a free job title falls under, or undefined when no persona title occurs in it. */
export function matchPersona(title: string): Persona | undefined {
  const key = titleKey(title);
  if (!key) return undefined;
  for (const phrase of PHRASES) {
    if (key.includes(phrase.key)) return copy(phrase.persona);
  }
  return undefined;
}

/**
 * The first of `customTitles` found in `title`, compared case- and
 * accent-insensitively, and anchored at word starts so that "CTO" does not
 * match "Director" while "Engineer" still matches "Engineering Manager".
 */
export function matchCustomTitle(title: string, customTitles: readonly string[]): string | undefined {
  const key = titleKey(title);
  if (!key) return undefined;
  for (const custom of customTitles) {
    const customKey = titleKey(custom);
    // Drop the trailing pad: a custom title may be the start of a longer word.
    if (customKey && key.includes(customKey.trimEnd())) return custom;
  }
  return undefined;
}

export function titleMatchesCustom(title: string, customTitles: readonly string[]): boolean {
  return matchCustomTitle(title, customTitles) !== undefined;
}
