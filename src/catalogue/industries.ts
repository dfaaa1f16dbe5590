/**
 * Industry taxonomy of `industryFilters` and of `company.industry`: the
 * LinkedIn Industry Codes V2 names, grouped under their 20 top-level
 * industries (the "categories" here). Deeper V2 levels are flattened into
 * their top-level category, because filters only ever need "is this industry
 * inside that category".
 *
 * A top-level name is itself a V2 industry (companies are tagged
 * "Manufacturing" or "Financial Services"), so it is listed as an industry of
 * its own category and is a valid filter value. Used as a filter, a category
 * covers itself and every industry under it (`expandIndustryFilters`).
 *
 * Names are compared exactly: the spec says filter values are copied verbatim
 * from the catalogue. Near misses are only ever reported, through
 * `suggestIndustries`, never silently accepted.
 */
import { boundedEditDistance, foldText, suggestionTolerance } from './text-matching';

export interface Industry {
  name: string;
  category: string;
  /** True for the 20 top-level names, which select a whole category when used as a filter. */
  isCategory: boolean;
}

const TAXONOMY: Readonly<Record<string, readonly string[]>> = {
  'Accommodation Services': [
    'Bed-and-Breakfasts, Hostels, Homestays',
    'Hotels and Motels',
    'Hospitality',
    'Food and Beverage Services',
    'Bars, Taverns, and Nightclubs',
    'Caterers',
    'Mobile Food Services',
    'Restaurants',
  ],
  'Administrative and Support Services': [
    'Collection Agencies',
    'Events Services',
    'Facilities Services',
    'Janitorial Services',
    'Landscaping Services',
    'Fundraising',
    'Office Administration',
    'Security and Investigations',
    'Security Guards and Patrol Services',
    'Security Systems Services',
    'Staffing and Recruiting',
    'Executive Search Services',
    'Temporary Help Services',
    'Telephone Call Centers',
    'Translation and Localization',
    'Travel Arrangements',
    'Writing and Editing',
  ],
  Construction: [
    'Building Construction',
    'Nonresidential Building Construction',
    'Residential Building Construction',
    'Civil Engineering',
    'Highway, Street, and Bridge Construction',
    'Subdivision of Land',
    'Utility System Construction',
    'Specialty Trade Contractors',
    'Building Equipment Contractors',
    'Building Finishing Contractors',
    'Building Structure and Exterior Contractors',
  ],
  'Consumer Services': [
    'Civic and Social Organizations',
    'Industry Associations',
    'Political Organizations',
    'Professional Organizations',
    'Household Services',
    'Non-profit Organizations',
    'Personal and Laundry Services',
    'Laundry and Drycleaning Services',
    'Personal Care Services',
    'Pet Services',
    'Philanthropic Fundraising Services',
    'Religious Institutions',
    'Repair and Maintenance',
    'Commercial and Industrial Machinery Maintenance',
    'Electronic and Precision Equipment Maintenance',
    'Footwear and Leather Goods Repair',
    'Reupholstery and Furniture Repair',
    'Vehicle Repair and Maintenance',
  ],
  Education: [
    'E-Learning Providers',
    'Higher Education',
    'Primary and Secondary Education',
    'Professional Training and Coaching',
    'Technical and Vocational Training',
    'Cosmetology and Barber Schools',
    'Fine Arts Schools',
    'Flight Training',
    'Language Schools',
    'Secretarial Schools',
    'Sports and Recreation Instruction',
  ],
  'Entertainment Providers': [
    'Artists and Writers',
    'Museums, Historical Sites, and Zoos',
    'Historical Sites',
    'Museums',
    'Zoos and Botanical Gardens',
    'Musicians',
    'Performing Arts and Spectator Sports',
    'Circuses and Magic Shows',
    'Dance Companies',
    'Performing Arts',
    'Spectator Sports',
    'Racetracks',
    'Sports Teams and Clubs',
    'Theater Companies',
    'Recreational Facilities',
    'Amusement Parks and Arcades',
    'Gambling Facilities and Casinos',
    'Golf Courses and Country Clubs',
    'Skiing Facilities',
    'Wellness and Fitness Services',
  ],
  'Farming, Ranching, Forestry': [
    'Farming',
    'Horticulture',
    'Forestry and Logging',
    'Ranching and Fisheries',
    'Fisheries',
    'Ranching',
  ],
  'Financial Services': [
    'Capital Markets',
    'Investment Advice',
    'Investment Banking',
    'Investment Management',
    'Securities and Commodity Exchanges',
    'Venture Capital and Private Equity Principals',
    'Credit Intermediation',
    'Banking',
    'International Trade and Development',
    'Loan Brokers',
    'Savings Institutions',
    'Funds and Trusts',
    'Insurance and Employee Benefit Funds',
    'Pension Funds',
    'Trusts and Estates',
    'Insurance',
    'Claims Adjusting, Actuarial Services',
    'Insurance Agencies and Brokerages',
    'Insurance Carriers',
  ],
  'Government Administration': [
    'Administration of Justice',
    'Correctional Institutions',
    'Courts of Law',
    'Fire Protection',
    'Law Enforcement',
    'Public Safety',
    'Economic Programs',
    'Transportation Programs',
    'Utilities Administration',
    'Environmental Quality Programs',
    'Air, Water, and Waste Program Management',
    'Conservation Programs',
    'Health and Human Services',
    'Education Administration Programs',
    'Public Assistance Programs',
    'Public Health',
    'Housing and Community Development',
    'Community Development and Urban Planning',
    'Housing Programs',
    'Military and International Affairs',
    'Armed Forces',
    'International Affairs',
    'Public Policy Offices',
    'Executive Offices',
    'Legislative Offices',
    'Space Research and Technology',
  ],
  'Holding Companies': [],
  'Hospitals and Health Care': [
    'Community Services',
    'Services for the Elderly and Disabled',
    'Hospitals',
    'Individual and Family Services',
    'Child Day Care Services',
    'Emergency and Relief Services',
    'Vocational Rehabilitation Services',
    'Medical Practices',
    'Alternative Medicine',
    'Ambulance Services',
    'Chiropractors',
    'Dentists',
    'Family Planning Centers',
    'Home Health Care Services',
    'Medical and Diagnostic Laboratories',
    'Mental Health Care',
    'Optometrists',
    'Outpatient Care Centers',
    'Physical, Occupational and Speech Therapists',
    'Physicians',
    'Nursing Homes and Residential Care Facilities',
  ],
  Manufacturing: [
    'Apparel Manufacturing',
    'Fashion Accessories Manufacturing',
    'Appliances, Electrical, and Electronics Manufacturing',
    'Electric Lighting Equipment Manufacturing',
    'Electrical Equipment Manufacturing',
    'Household Appliance Manufacturing',
    'Chemical Manufacturing',
    'Agricultural Chemical Manufacturing',
    'Artificial Rubber and Synthetic Fiber Manufacturing',
    'Chemical Raw Materials Manufacturing',
    'Paint, Coating, and Adhesive Manufacturing',
    'Personal Care Product Manufacturing',
    'Pharmaceutical Manufacturing',
    'Soap and Cleaning Product Manufacturing',
    'Climate Technology Product Manufacturing',
    'Computers and Electronics Manufacturing',
    'Audio and Video Equipment Manufacturing',
    'Communications Equipment Manufacturing',
    'Computer Hardware Manufacturing',
    'Magnetic and Optical Media Manufacturing',
    'Measuring and Control Instrument Manufacturing',
    'Semiconductor Manufacturing',
    'Renewable Energy Semiconductor Manufacturing',
    'Fabricated Metal Products',
    'Architectural and Structural Metal Manufacturing',
    'Boilers, Tanks, and Shipping Container Manufacturing',
    'Construction Hardware Manufacturing',
    'Cutlery and Handtool Manufacturing',
    'Metal Treatments',
    'Metal Valve, Ball, and Roller Manufacturing',
    'Spring and Wire Product Manufacturing',
    'Turned Products and Fastener Manufacturing',
    'Food and Beverage Manufacturing',
    'Animal Feed Manufacturing',
    'Baked Goods Manufacturing',
    'Beverage Manufacturing',
    'Breweries',
    'Distilleries',
    'Wineries',
    'Dairy Product Manufacturing',
    'Fruit and Vegetable Preserves Manufacturing',
    'Meat Products Manufacturing',
    'Seafood Product Manufacturing',
    'Sugar and Confectionery Product Manufacturing',
    'Furniture and Home Furnishings Manufacturing',
    'Household and Institutional Furniture Manufacturing',
    'Mattress and Blinds Manufacturing',
    'Office Furniture and Fixtures Manufacturing',
    'Glass, Ceramics and Concrete Manufacturing',
    'Abrasives and Nonmetallic Minerals Manufacturing',
    'Clay and Refractory Products Manufacturing',
    'Glass Product Manufacturing',
    'Lime and Gypsum Products Manufacturing',
    'Leather Product Manufacturing',
    'Footwear Manufacturing',
    "Women's Handbag Manufacturing",
    'Machinery Manufacturing',
    'Agriculture, Construction, Mining Machinery Manufacturing',
    'Automation Machinery Manufacturing',
    'Commercial and Service Industry Machinery Manufacturing',
    'Engines and Power Transmission Equipment Manufacturing',
    'HVAC and Refrigeration Equipment Manufacturing',
    'Industrial Machinery Manufacturing',
    'Metalworking Machinery Manufacturing',
    'Medical Equipment Manufacturing',
    'Oil and Coal Product Manufacturing',
    'Paper and Forest Product Manufacturing',
    'Plastics and Rubber Product Manufacturing',
    'Packaging and Containers Manufacturing',
    'Plastics Manufacturing',
    'Rubber Products Manufacturing',
    'Primary Metal Manufacturing',
    'Printing Services',
    'Sporting Goods Manufacturing',
    'Textile Manufacturing',
    'Tobacco Manufacturing',
    'Transportation Equipment Manufacturing',
    'Aviation and Aerospace Component Manufacturing',
    'Defense and Space Manufacturing',
    'Motor Vehicle Manufacturing',
    'Motor Vehicle Parts Manufacturing',
    'Railroad Equipment Manufacturing',
    'Shipbuilding',
    'Wood Product Manufacturing',
  ],
  'Oil, Gas, and Mining': [
    'Mining',
    'Coal Mining',
    'Metal Ore Mining',
    'Nonmetallic Mineral Mining',
    'Oil and Gas',
    'Natural Gas Extraction',
    'Oil Extraction',
  ],
  'Professional Services': [
    'Accounting',
    'Advertising Services',
    'Government Relations Services',
    'Architecture and Planning',
    'Business Consulting and Services',
    'Environmental Services',
    'Human Resources Services',
    'Marketing Services',
    'Operations Consulting',
    'Outsourcing and Offshoring Consulting',
    'Strategic Management Services',
    'Design Services',
    'Graphic Design',
    'Interior Design',
    'Engineering Services',
    'IT Services and IT Consulting',
    'Computer and Network Security',
    'IT System Custom Software Development',
    'IT System Data Services',
    'IT System Design Services',
    'IT System Installation and Disposal',
    'IT System Operations and Maintenance',
    'IT System Testing and Evaluation',
    'IT System Training and Support',
    'Legal Services',
    'Alternative Dispute Resolution',
    'Law Practice',
    'Market Research',
    'Photography',
    'Public Relations and Communications Services',
    'Research Services',
    'Biotechnology Research',
    'Nanotechnology Research',
    'Think Tanks',
    'Services for Renewable Energy',
    'Veterinary Services',
  ],
  'Real Estate and Equipment Rental Services': [
    'Equipment Rental Services',
    'Commercial and Industrial Equipment Rental',
    'Consumer Goods Rental',
    'Real Estate',
    'Leasing Non-residential Real Estate',
    'Leasing Residential Real Estate',
    'Real Estate Agents and Brokers',
  ],
  Retail: [
    'Food and Beverage Retail',
    'Retail Groceries',
    'Online and Mail Order Retail',
    'Retail Apparel and Fashion',
    'Retail Appliances, Electrical, and Electronic Equipment',
    'Retail Art Dealers',
    'Retail Art Supplies',
    'Retail Books and Printed News',
    'Retail Building Materials and Garden Equipment',
    'Retail Florists',
    'Retail Furniture and Home Furnishings',
    'Retail Gasoline',
    'Retail Health and Personal Care Products',
    'Retail Luxury Goods and Jewelry',
    'Retail Motor Vehicles',
    'Retail Musical Instruments',
    'Retail Office Equipment',
    'Retail Office Supplies and Gifts',
    'Retail Recyclable Materials and Used Merchandise',
  ],
  'Technology, Information and Media': [
    'Media and Telecommunications',
    'Book and Periodical Publishing',
    'Book Publishing',
    'Newspaper Publishing',
    'Periodical Publishing',
    'Broadcast Media Production and Distribution',
    'Cable and Satellite Programming',
    'Radio and Television Broadcasting',
    'Movies, Videos, and Sound',
    'Animation and Post-production',
    'Media Production',
    'Movies and Sound Recording',
    'Sheet Music Publishing',
    'Sound Recording',
    'Telecommunications',
    'Satellite Telecommunications',
    'Telecommunications Carriers',
    'Wireless Services',
    'Information Services',
    'Internet News',
    'Libraries',
    'Blogs',
    'Data Infrastructure and Analytics',
    'Software Development',
    'Computer Games',
    'Mobile Gaming Apps',
    'Desktop Computing Software Products',
    'Embedded Software Products',
    'Mobile Computing Software Products',
    'Technology, Information and Internet',
    'Business Intelligence Platforms',
    'Internet Marketplace Platforms',
    'Internet Publishing',
    'Online Audio and Video Media',
    'Social Networking Platforms',
    'Blockchain Services',
  ],
  'Transportation, Logistics, Supply Chain and Storage': [
    'Airlines and Aviation',
    'Freight and Package Transportation',
    'Ground Passenger Transportation',
    'Interurban and Rural Bus Services',
    'School and Employee Bus Services',
    'Shuttles and Special Needs Transportation Services',
    'Sightseeing Transportation',
    'Taxi and Limousine Services',
    'Urban Transit Services',
    'Maritime Transportation',
    'Pipeline Transportation',
    'Postal Services',
    'Rail Transportation',
    'Truck Transportation',
    'Warehousing and Storage',
  ],
  Utilities: [
    'Electric Power Generation',
    'Fossil Fuel Electric Power Generation',
    'Nuclear Electric Power Generation',
    'Renewable Energy Power Generation',
    'Biomass Electric Power Generation',
    'Geothermal Electric Power Generation',
    'Hydroelectric Power Generation',
    'Solar Electric Power Generation',
    'Wind Electric Power Generation',
    'Electric Power Transmission, Control, and Distribution',
    'Natural Gas Distribution',
    'Water, Waste, Steam, and Air Conditioning Services',
    'Steam and Air-Conditioning Supply',
    'Waste Collection',
    'Waste Treatment and Disposal',
    'Water Supply and Irrigation Systems',
  ],
  Wholesale: [
    'Wholesale Alcoholic Beverages',
    'Wholesale Apparel and Sewing Supplies',
    'Wholesale Appliances, Electrical, and Electronics',
    'Wholesale Building Materials',
    'Wholesale Chemical and Allied Products',
    'Wholesale Computer Equipment',
    'Wholesale Drugs and Sundries',
    'Wholesale Food and Beverage',
    'Wholesale Footwear',
    'Wholesale Furniture and Home Furnishings',
    'Wholesale Hardware, Plumbing, Heating Equipment',
    'Wholesale Import and Export',
    'Wholesale Luxury Goods and Jewelry',
    'Wholesale Machinery',
    'Wholesale Metals and Minerals',
    'Wholesale Motor Vehicles and Parts',
    'Wholesale Paper Products',
    'Wholesale Petroleum and Petroleum Products',
    'Wholesale Photography Equipment and Supplies',
    'Wholesale Raw Farm Products',
    'Wholesale Recyclable Materials',
  ],
};

const CATEGORIES: readonly string[] = Object.freeze(Object.keys(TAXONOMY));

/** Each category first, then its industries in taxonomy order: the stable order every listing uses. */
const INDUSTRIES: readonly Industry[] = Object.freeze(
  CATEGORIES.flatMap((category) => [
    Object.freeze({ name: category, category, isCategory: true }),
    ...TAXONOMY[category].map((name) => Object.freeze({ name, category, isCategory: false })),
  ]),
);

const BY_NAME: ReadonlyMap<string, Industry> = new Map(INDUSTRIES.map((industry) => [industry.name, industry]));
const CATEGORY_SET: ReadonlySet<string> = new Set(CATEGORIES);

/** `search` is a case-insensitive substring of the name or of the category; without it, everything. */
export function listIndustries(search?: string): Industry[] {
  const needle = search?.trim().toLowerCase();
  const found = needle
    ? INDUSTRIES.filter(
        (industry) => industry.name.toLowerCase().includes(needle) || industry.category.toLowerCase().includes(needle),
      )
    : INDUSTRIES;
  return found.map((industry) => ({ ...industry }));
}

/** Exact and case-sensitive, as filter matching is. Category names are known industries too. */
export function isKnownIndustry(name: string): boolean {
  return BY_NAME.has(name);
}

export function findIndustry(name: string): Industry | undefined {
  const industry = BY_NAME.get(name);
  return industry ? { ...industry } : undefined;
}

export function industryCategories(): string[] {
  return [...CATEGORIES];
}

export function isCategory(name: string): boolean {
  return CATEGORY_SET.has(name);
}

/** The industries under a category, without the category's own name; [] for anything that is not a category. */
export function industriesInCategory(category: string): string[] {
  return CATEGORY_SET.has(category) ? [...TAXONOMY[category]] : [];
}

/** The category an industry belongs to (a category belongs to itself). */
export function categoryOf(name: string): string | undefined {
  return BY_NAME.get(name)?.category;
}

/**
 * The set of `company.industry` values a filter list accepts: each known
 * name, plus every industry of each category named. Unknown names are kept as
 * given, so they still match a company tagged exactly so (the warning about
 * them is the caller's business).
 */
export function expandIndustryFilters(filters: readonly string[]): Set<string> {
  const accepted = new Set<string>();
  for (const filter of filters) {
    accepted.add(filter);
    if (CATEGORY_SET.has(filter)) for (const name of TAXONOMY[filter]) accepted.add(name);
  }
  return accepted;
}

/**
 * Industries of a category that a filter list also names on their own: they
 * add nothing, since the category already covers them. Behind the warning the
 * spec asks for ("a category sent together with its own industries").
 */
export function redundantIndustryFilters(filters: readonly string[]): { category: string; industries: string[] }[] {
  const given = new Set(filters);
  const found: { category: string; industries: string[] }[] = [];
  for (const category of CATEGORIES) {
    if (!given.has(category)) continue;
    const industries = TAXONOMY[category].filter((name) => given.has(name));
    if (industries.length > 0) found.push({ category, industries });
  }
  return found;
}

/**
 * LinkedIn's first-generation industry names, still common in vendor data and
 * in what clients type from memory, with the V2 name that replaced them.
 */
const LEGACY_NAMES: Readonly<Record<string, string>> = {
  'Computer Software': 'Software Development',
  'Information Technology & Services': 'IT Services and IT Consulting',
  'Information Technology and Services': 'IT Services and IT Consulting',
  Internet: 'Technology, Information and Internet',
  'Hospital & Health Care': 'Hospitals and Health Care',
  'Marketing & Advertising': 'Advertising Services',
  'Marketing and Advertising': 'Advertising Services',
  'Management Consulting': 'Business Consulting and Services',
  'Computer & Network Security': 'Computer and Network Security',
  'Staffing & Recruiting': 'Staffing and Recruiting',
  'Medical Practice': 'Medical Practices',
  'Health, Wellness & Fitness': 'Wellness and Fitness Services',
  'Health, Wellness and Fitness': 'Wellness and Fitness Services',
  'Food & Beverages': 'Food and Beverage Services',
  'Food Production': 'Food and Beverage Manufacturing',
  'Electrical/Electronic Manufacturing': 'Appliances, Electrical, and Electronics Manufacturing',
  'Electrical & Electronic Manufacturing': 'Appliances, Electrical, and Electronics Manufacturing',
  Automotive: 'Motor Vehicle Manufacturing',
  Biotechnology: 'Biotechnology Research',
  Pharmaceuticals: 'Pharmaceutical Manufacturing',
  'Medical Devices': 'Medical Equipment Manufacturing',
  'Education Management': 'Education Administration Programs',
  'E-Learning': 'E-Learning Providers',
  'Venture Capital & Private Equity': 'Venture Capital and Private Equity Principals',
  'Computer Hardware': 'Computer Hardware Manufacturing',
  'Computer Networking': 'Communications Equipment Manufacturing',
  Semiconductors: 'Semiconductor Manufacturing',
  'Consumer Electronics': 'Computers and Electronics Manufacturing',
  'Oil & Energy': 'Oil and Gas',
  'Renewables & Environment': 'Renewable Energy Power Generation',
  'Logistics & Supply Chain': 'Transportation, Logistics, Supply Chain and Storage',
  'Logistics and Supply Chain': 'Transportation, Logistics, Supply Chain and Storage',
  'Transportation/Trucking/Railroad': 'Truck Transportation',
  'Airlines/Aviation': 'Airlines and Aviation',
  'Aviation & Aerospace': 'Aviation and Aerospace Component Manufacturing',
  'Defense & Space': 'Defense and Space Manufacturing',
  'Apparel & Fashion': 'Retail Apparel and Fashion',
  Design: 'Design Services',
  'Architecture & Planning': 'Architecture and Planning',
  'Nonprofit Organization Management': 'Non-profit Organizations',
  'Non-profit Organization Management': 'Non-profit Organizations',
  'Human Resources': 'Human Resources Services',
  'Public Relations & Communications': 'Public Relations and Communications Services',
  'Public Relations and Communications': 'Public Relations and Communications Services',
  Research: 'Research Services',
  'Online Media': 'Online Audio and Video Media',
  'Broadcast Media': 'Broadcast Media Production and Distribution',
  Publishing: 'Book and Periodical Publishing',
  Entertainment: 'Entertainment Providers',
  Sports: 'Spectator Sports',
  'Import & Export': 'Wholesale Import and Export',
  'Import and Export': 'Wholesale Import and Export',
  Chemicals: 'Chemical Manufacturing',
  Machinery: 'Industrial Machinery Manufacturing',
  'Mechanical or Industrial Engineering': 'Engineering Services',
  'Industrial Automation': 'Automation Machinery Manufacturing',
  'Outsourcing/Offshoring': 'Outsourcing and Offshoring Consulting',
  'Mining & Metals': 'Mining',
  'Professional Training & Coaching': 'Professional Training and Coaching',
  Wireless: 'Wireless Services',
  'Leisure, Travel & Tourism': 'Travel Arrangements',
  'Commercial Real Estate': 'Leasing Non-residential Real Estate',
  'Legal Services': 'Legal Services',
  'Law Practice': 'Law Practice',
  'Financial Services': 'Financial Services',
  'Government Administration': 'Government Administration',
  Veterinary: 'Veterinary Services',
  'Program Development': 'IT System Custom Software Development',
  'Building Materials': 'Wholesale Building Materials',
  'Consumer Goods': 'Manufacturing',
  'Civic & Social Organization': 'Civic and Social Organizations',
  'Religious Institutions': 'Religious Institutions',
  'Package/Freight Delivery': 'Freight and Package Transportation',
  Warehousing: 'Warehousing and Storage',
  'Gambling & Casinos': 'Gambling Facilities and Casinos',
  'Recreational Facilities and Services': 'Recreational Facilities',
  'Real Estate': 'Real Estate',
};
const LEGACY_BY_FOLDED: ReadonlyMap<string, string> = new Map(
  Object.entries(LEGACY_NAMES).map(([legacy, current]) => [foldText(legacy), current]),
);

/**
 * The V2 name for a first-generation LinkedIn industry name ("Computer
 * Software" → "Software Development"), for normalising vendor data; a name
 * that is already V2 comes back unchanged; undefined when neither.
 */
export function currentIndustryName(name: string): string | undefined {
  if (BY_NAME.has(name)) return name;
  return LEGACY_BY_FOLDED.get(foldText(name));
}

const MAX_SUGGESTIONS = 5;

/**
 * Known names close to an unknown one, best first: the V2 successor of a
 * first-generation name ("Computer Software" → "Software Development"), a case
 * or punctuation variant ("software development"), a name containing it or contained in it
 * ("Software" → "Software Development"), or one a few typos away
 * ("Sofware Development"). Empty when nothing is close.
 */
export function suggestIndustries(name: string): string[] {
  const folded = foldText(name);
  if (!folded) return [];
  const tolerance = suggestionTolerance(folded.length);
  const scored: { name: string; score: number; order: number }[] = [];
  const legacy = LEGACY_BY_FOLDED.get(folded);
  if (legacy && legacy !== name) scored.push({ name: legacy, score: 0, order: -1 });
  INDUSTRIES.forEach((industry, order) => {
    if (industry.name === name || industry.name === legacy) return;
    const candidate = foldText(industry.name);
    let score: number;
    if (candidate === folded) score = 0;
    // Containing it: the closest in length first, so "Softwar" suggests "Software Development"
    // before "IT System Custom Software Development" (the difference stays under one typo's score).
    else if (folded.length >= 4 && (candidate.includes(folded) || folded.includes(candidate)))
      score = 1 + Math.abs(candidate.length - folded.length) / 1000;
    else {
      const distance = boundedEditDistance(folded, candidate, tolerance);
      if (distance > tolerance) return;
      score = 1 + distance;
    }
    scored.push({ name: industry.name, score, order });
  });
  scored.sort((a, b) => a.score - b.score || a.order - b.order);
  return scored.slice(0, MAX_SUGGESTIONS).map((entry) => entry.name);
}
