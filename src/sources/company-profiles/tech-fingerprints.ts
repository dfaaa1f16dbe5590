import type { SitePage } from '../kit/site-page';

/**
 * How one technology shows on a company's page. Our own list (docs/sources/company-profiles.md, "Technologies
 * recognised"): each pattern is the vendor's documented install snippet or asset host, no
 * third-party fingerprint data. `name` is the technographic catalogue's name, so a profiled
 * stack filters and lists like a provider's.
 */
export interface TechFingerprint {
  name: string;
  category: string;
  /** Tested on script URLs, other referenced resources (links, iframes, forms) and inline script text. */
  assets?: RegExp;
  /** Tested on inline script text only: the snippet's globals and calls. */
  inline?: RegExp;
  /** Tested on `<meta name="generator">`. */
  generator?: RegExp;
  /** The job board platform (`ats`) whose discovered board shows the technology. */
  ats?: string;
  /** Technologies this one is built on (Next.js runs React). */
  implies?: string[];
}

export const TECH_FINGERPRINTS: readonly TechFingerprint[] = [
  // Analytics and tag management
  {
    name: 'Google Analytics',
    category: 'Analytics',
    assets: /\bgoogle-analytics\.com\/(analytics|ga|urchin)\.js|\bgoogletagmanager\.com\/gtag\/js\?id=(G|UA)-/,
    inline: /\bgtag\(\s*['"]config['"]\s*,\s*['"](G|UA)-|\bga\(\s*['"]create['"]/,
  },
  {
    name: 'Google Tag Manager',
    category: 'Tag Management',
    assets: /\bgoogletagmanager\.com\/gtm\.js/,
    inline: /['"]GTM-[A-Z0-9]{4,}['"]/,
  },
  { name: 'Segment', category: 'Tag Management', assets: /\bcdn\.segment\.(com|io)\/analytics\.js/ },
  { name: 'Mixpanel', category: 'Analytics', assets: /\bcdn\.mxpnl\.com\//, inline: /\bmixpanel\.init\(/ },
  {
    name: 'Amplitude',
    category: 'Analytics',
    assets: /\bcdn\.amplitude\.com\//,
    inline: /\bamplitude\.(init|getInstance)\(/,
  },
  { name: 'Heap', category: 'Analytics', assets: /\bcdn\.heapanalytics\.com\//, inline: /\bheap\.load\(/ },
  { name: 'Hotjar', category: 'Analytics', assets: /\bstatic\.hotjar\.com\//, inline: /\b_hjSettings\b/ },
  { name: 'FullStory', category: 'Analytics', assets: /\bfullstory\.com\/s\/fs\.js/, inline: /\b_fs_org\b/ },
  { name: 'PostHog', category: 'Analytics', assets: /\.posthog\.com\/(static|array)\//, inline: /\bposthog\.init\(/ },
  { name: 'Plausible', category: 'Analytics', assets: /\bplausible\.io\/js\// },
  { name: 'Matomo', category: 'Analytics', assets: /\/(matomo|piwik)\.js\b/, inline: /\b_paq\.push\(/ },
  // Marketing automation and email
  {
    name: 'HubSpot Marketing Hub',
    category: 'Marketing Automation',
    assets: /\bjs\.(hs-scripts|hsforms|hs-analytics|hsleadflows)\.(com|net)\//,
  },
  {
    name: 'Marketo',
    category: 'Marketing Automation',
    assets: /\bmunchkin\.marketo\.net\//,
    inline: /\bMunchkin\.init\(/,
  },
  { name: 'Pardot', category: 'Marketing Automation', assets: /\bpi\.pardot\.com\//, inline: /\bpiAId\s*=/ },
  { name: 'Customer.io', category: 'Marketing Automation', assets: /\bassets\.customer\.io\// },
  { name: 'Mailchimp', category: 'Email Marketing', assets: /\bchimpstatic\.com\/|\.list-manage\.com\/subscribe/ },
  { name: 'Klaviyo', category: 'Email Marketing', assets: /\bstatic\.klaviyo\.com\// },
  // Advertising pixels
  {
    name: 'LinkedIn Ads',
    category: 'Advertising',
    assets: /\bsnap\.licdn\.com\/li\.lms-analytics\//,
    inline: /\b_linkedin_partner_id\b/,
  },
  {
    name: 'Meta Ads',
    category: 'Advertising',
    assets: /\bconnect\.facebook\.net\/[^"'\s]*\/fbevents\.js/,
    inline: /\bfbq\(\s*['"]init['"]/,
  },
  {
    name: 'Google Ads',
    category: 'Advertising',
    assets: /\bgoogleadservices\.com\/pagead\/conversion/,
    inline: /['"]AW-\d{6,}['"]/,
  },
  // Customer support and chat
  {
    name: 'Intercom',
    category: 'Customer Support',
    assets: /\bwidget\.intercom\.io\/|\bjs\.intercomcdn\.com\//,
    inline: /\bintercomSettings\b/,
  },
  { name: 'Drift', category: 'Customer Support', assets: /\bjs\.driftt\.com\//, inline: /\bdrift\.load\(/ },
  { name: 'Zendesk', category: 'Customer Support', assets: /\bstatic\.zdassets\.com\//, inline: /\bzESettings\b/ },
  { name: 'Help Scout', category: 'Customer Support', assets: /\bbeacon-v2\.helpscout\.net\b/ },
  // Payments and commerce
  { name: 'Stripe', category: 'Payments', assets: /\bjs\.stripe\.com\// },
  { name: 'PayPal', category: 'Payments', assets: /\bpaypal\.com\/sdk\/js|\bpaypalobjects\.com\// },
  { name: 'Paddle', category: 'Payments', assets: /\bcdn\.paddle\.com\/paddle\// },
  { name: 'Chargebee', category: 'Payments', assets: /\bjs\.chargebee\.com\// },
  { name: 'Shopify', category: 'E-commerce', assets: /\bcdn\.shopify\.com\//, inline: /\bShopify\.shop\s*=/ },
  // Sites and frameworks
  { name: 'WordPress', category: 'CMS', assets: /\/wp-(content|includes)\//, generator: /^WordPress\b/i },
  { name: 'Webflow', category: 'CMS', assets: /\bwebsite-files\.com\//, generator: /^Webflow\b/i },
  { name: 'Squarespace', category: 'CMS', assets: /\bstatic1?\.squarespace\.com\//, generator: /Squarespace/i },
  { name: 'Wix', category: 'CMS', assets: /\bstatic\.parastorage\.com\//, generator: /^Wix\.com\b/i },
  { name: 'Drupal', category: 'CMS', generator: /^Drupal\b/i },
  {
    name: 'Next.js',
    category: 'Frontend Frameworks',
    assets: /\/_next\/static\//,
    inline: /\b__NEXT_DATA__\b/,
    implies: ['React'],
  },
  { name: 'React', category: 'Frontend Frameworks', assets: /\breact(-dom)?(\.production)?(\.min)?\.js\b/ },
  { name: 'Cloudflare', category: 'Cloud Infrastructure', assets: /\/cdn-cgi\/|\bstatic\.cloudflareinsights\.com\// },
  // Scheduling, sales intelligence, product experience, monitoring
  { name: 'Calendly', category: 'Scheduling and Forms', assets: /\bassets\.calendly\.com\// },
  { name: 'Chili Piper', category: 'Scheduling and Forms', assets: /\bjs\.chilipiper\.com\// },
  { name: 'Typeform', category: 'Scheduling and Forms', assets: /\bembed\.typeform\.com\// },
  { name: 'Clearbit', category: 'Sales Intelligence', assets: /\btag\.clearbitscripts\.com\// },
  { name: '6sense', category: 'Sales Intelligence', assets: /\bj\.6sc\.co\// },
  { name: 'ZoomInfo', category: 'Sales Intelligence', assets: /\bws\.zoominfo\.com\/|\bjs\.zi-scripts\.com\// },
  { name: 'Optimizely', category: 'Product Experience', assets: /\bcdn\.optimizely\.com\// },
  { name: 'VWO', category: 'Product Experience', assets: /\bdev\.visualwebsiteoptimizer\.com\// },
  { name: 'Pendo', category: 'Product Experience', assets: /\bcdn\.pendo\.io\// },
  { name: 'Sentry', category: 'Monitoring', assets: /\b(browser|js)\.sentry-cdn\.com\// },
  { name: 'New Relic', category: 'Monitoring', assets: /\bjs-agent\.newrelic\.com\//, inline: /\bNREUM\b/ },
  // Applicant-tracking systems: shown by the board found on the site (job-board-links.ts)
  { name: 'Greenhouse', category: 'HR and Recruiting', ats: 'greenhouse' },
  { name: 'Lever', category: 'HR and Recruiting', ats: 'lever' },
  { name: 'Ashby', category: 'HR and Recruiting', ats: 'ashby' },
  { name: 'Workable', category: 'HR and Recruiting', ats: 'workable' },
  { name: 'SmartRecruiters', category: 'HR and Recruiting', ats: 'smartrecruiters' },
  { name: 'Recruitee', category: 'HR and Recruiting', ats: 'recruitee' },
  { name: 'Personio', category: 'HR and Recruiting', ats: 'personio' },
];

/**
 * The technologies a page shows, in the list's order, each once: asset patterns on the page's
 * script and resource URLs and inline scripts, snippet patterns on inline scripts, the
 * generator, and the platforms of the boards the page links (`boardAts`).
 */
export function technologiesOf(page: SitePage, boardAts: readonly string[] = []): string[] {
  const urls = [...page.scriptUrls, ...page.resourceUrls].join('\n');
  const found = new Set<string>();
  for (const tech of TECH_FINGERPRINTS) {
    const shows =
      (tech.assets && (tech.assets.test(urls) || tech.assets.test(page.inlineScript))) ||
      (tech.inline && tech.inline.test(page.inlineScript)) ||
      (tech.generator && tech.generator.test(page.generator)) ||
      (tech.ats !== undefined && boardAts.includes(tech.ats));
    if (!shows) continue;
    found.add(tech.name);
    for (const implied of tech.implies ?? []) found.add(implied);
  }
  const order = new Map(TECH_FINGERPRINTS.map((tech, i) => [tech.name, i]));
  return [...found].sort((a, b) => order.get(a)! - order.get(b)!);
}
