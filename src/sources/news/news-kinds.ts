import { NEWS_EVENT_LABELS, type NewsEventType } from '../../catalogue/watchlist-events';

/**
 * The news kinds of the specification, told apart by phrase rules (docs/sources/news.md, "The kinds"):
 * the headline is read first and the article's lead only when the headline names no kind,
 * because a lead often recalls older news ("…, which raised $40M last year"). Within one text
 * the first kind in {@link NEWS_KIND_RULES} order wins: the rarer and more specific kinds come
 * first, the broad words (launch, partner) last. English only, like the GDELT search.
 */
export interface NewsClassification {
  kind: NewsEventType;
  label: string;
  /** For `event_participation`: the show's name and place as the text states them, else ''. */
  eventName: string;
  eventLocation: string;
}

interface NewsKindRule {
  kind: NewsEventType;
  patterns: RegExp[];
}

const ROLE =
  '(?:ceo|cfo|cto|coo|cmo|cro|cio|ciso|cpo|chro|chief(?: [a-z]+){1,2} officer|president|vice[- ]president|svp|evp|vp|head of [a-z]+|managing director|general manager|chair(?:man|woman|person)?|board of directors|board member|non-executive director|executive director|country manager)';
const MONEY = '(?:[$€£]\\s?\\d|\\b(?:usd|eur|gbp|chf)\\s?\\d|\\b\\d[\\d.,]*\\s?(?:k|m|mn|million|b|bn|billion)\\b)';
const NOT_MONEY_NEWS =
  '(?![^.]{0,30}\\b(?:dividends?|prices?|guidance|forecast|outlook|rates?|wages?|salar(?:y|ies)|awareness|concerns?|questions?|contracts?|deals?|orders?|tenders?)\\b)';
const EVENT_WORD =
  '(?:expo|summit|conference|congress|convention|trade ?show|trade fair|messe|salon|ces|mwc|dreamforce|re:invent|web summit|vivatech|gitex|slush|nrf|rsa conference|black hat|ibc|nab show|saastr|sibos)';
const PLACE =
  '(?:office|offices|headquarters|hq|hub|facility|factory|plant|warehouse|store|stores|showroom|data cent(?:er|re)|campus|branch|studio|r&d cent(?:er|re)|distribution cent(?:er|re)|cent(?:er|re) of excellence)';

/** In precedence order. */
export const NEWS_KIND_RULES: readonly NewsKindRule[] = [
  {
    kind: 'mergers_acquisitions',
    patterns: [
      new RegExp(
        '\\b(?:acquires?|acquired|to acquire|acquiring)\\b(?!\\s+(?:[\\d,.]+\\s+)?(?:new\\s+)?(?:customers|users|clients|talent|skills|subscribers)\\b)',
        'i',
      ),
      /\b(?:agrees? to (?:buy|acquire)|complet(?:es?|ed) (?:the |its )?acquisition|acquisition (?:of|deal)|merges? with|merger (?:with|of|between|agreement)|to merge|takeover (?:of|bid|offer)|snaps? up|buyout of|to be acquired|has been acquired|is acquired)\b/i,
      /\b(?:takes?|took) over\b(?! as)/i,
      /\b(?:[Bb]uys|[Bb]ought|[Tt]o [Bb]uy)\s+(?![Bb]ack\b|[Ss]hares\b|[Ss]tock\b|[Aa]n?\b|[Tt]he\b)[A-Z0-9]/,
    ],
  },
  {
    kind: 'funding',
    patterns: [
      /\b(?:rais(?:es?|ed|ing)|secur(?:es?|ed)|clos(?:es?|ed)|lands?|landed|nabs?|bags?|gets?|receiv(?:es?|ed)|announc(?:es?|ed)|complet(?:es?|ed))\b[^.]{0,40}?\b(?:seed|pre-seed|series [a-h]\d?|growth|venture|funding|financing|investment|equity|debt)\s+(?:round|funding|financing|investment|capital|raise)\b/i,
      new RegExp(
        `\\b(?:rais(?:es?|ed|ing)|secur(?:es?|ed)|lands?|landed|nabs?|bags?)\\b${NOT_MONEY_NEWS}[^.]{0,30}?${MONEY}`,
        'i',
      ),
      /\b(?:series [a-h]|seed|pre-seed)\s+(?:round|funding|financing|extension)\b/i,
      /\b(?:funding round|round of funding|in (?:new )?funding)\b/i,
    ],
  },
  {
    kind: 'leadership_change',
    patterns: [
      new RegExp(
        `\\b(?:appoints?|appointed|appointment of|names?|named|hires?|hired|promotes?|promoted|welcomes?|welcomed|taps?|tapped|elects?|elected)\\b[^.]{0,80}?\\b${ROLE}\\b`,
        'i',
      ),
      new RegExp(
        `\\b${ROLE}\\b[^.]{0,40}?\\b(?:steps? down|stepping down|to step down|resigns?|resigned|retires?|retiring|to retire|departs?|departing|leaves|to leave)\\b`,
        'i',
      ),
      new RegExp(`\\b(?:new|interim|incoming)\\s+${ROLE}\\b`, 'i'),
      new RegExp(`\\bjoins?\\b[^.]{0,60}?\\bas\\s+(?:its\\s+|the\\s+)?(?:new\\s+)?${ROLE}\\b`, 'i'),
      new RegExp(`\\b(?:takes?|took) over as\\s+(?:its\\s+)?${ROLE}\\b`, 'i'),
    ],
  },
  {
    kind: 'restructuring',
    patterns: [
      /\b(?:lay(?:s|ing)? off|laid off|layoffs?|job cuts?|cutting (?:[\d,]+ )?jobs|workforce reduction|reduction in force|restructur(?:e|es|ed|ing)|reorgani[sz](?:e|es|ed|ation|ing)|downsiz(?:e|es|ed|ing)|chapter 11|bankruptcy|receivership|insolvency)\b/i,
      /\bcuts? (?:[\d,]+|\d+%|hundreds of|thousands of) (?:jobs|roles|positions|employees|staff|workers)\b/i,
      /\breduc(?:es?|ing) (?:its )?(?:workforce|headcount|staff)\b/i,
      /\b(?:enters? (?:administration|insolvency)|wind(?:s|ing)? down|to wind down|shut(?:s|ting)? down|to shut down|spin(?:s|ning)?[- ]off|divest(?:s|ed|iture|ment|ing)?)\b/i,
      /\bclos(?:es|ing|ed) (?:its |the |a )?(?:[a-z]+ )?(?:office|offices|plant|factory|site|facility|stores|division|operations)\b/i,
    ],
  },
  {
    kind: 'event_participation',
    patterns: [
      /\b(?:exhibit(?:s|ing)?|to exhibit|exhibitor)\b/i,
      /\b(?:booth|stand)\s*(?:no\.?\s*|#\s*)?[A-Z]?\d+[A-Z0-9.-]*\b/i,
      new RegExp(
        `\\b(?:attend(?:s|ing)?|showcas(?:e|es|ing)|present(?:s|ing)?|speak(?:s|ing)?|demo(?:s|ing)?|join(?:s)? us|meet us|visit us|unveil(?:s|ing)?|launch(?:es|ing)?|debut(?:s|ing)?)\\b[^.]{0,60}?\\bat\\s+(?:the\\s+)?[^.]{0,40}?\\b${EVENT_WORD}\\b`,
        'i',
      ),
    ],
  },
  {
    kind: 'expansion',
    patterns: [
      new RegExp(
        `\\b(?:opens?|opened|opening|launch(?:es|ed)?|unveils?|inaugurates?|establish(?:es|ed)?)\\b[^.]{0,40}?\\b${PLACE}\\b(?!-)`,
        'i',
      ),
      /\b[Ee]xpan(?:ds?|ded|ding|sion)\b[^.]{0,40}?\b(?:into|to|in)\s+(?:the\s+)?(?:[A-Z][a-z]|[A-Z]{2}\b|new markets?|[a-z]+ markets?)/,
      /\b[Ee]nter(?:s|ing|ed)?\s+(?:the\s+)?[A-Z][\w.-]*(?:\s+[A-Z][\w.-]*)?\s+[Mm]arkets?\b/,
      /\b(?:relocat(?:es|ed|ing)|moves?|moving)\s+(?:its\s+)?(?:[a-z]+\s+)?(?:headquarters|hq|head office)\b/i,
      /\bnew\s+(?:[a-z]+\s+)?(?:office|headquarters|hq|hub|facility|factory|plant|campus|data cent(?:er|re))\s+in\b/i,
    ],
  },
  {
    kind: 'contract_partnership',
    patterns: [
      /\b(?:partners?|partnered|partnering)\s+with\b/i,
      /\b(?:partnership|alliance|collaboration|agreement|joint venture)\s+(?:with|between)\b/i,
      /\b(?:strategic|global|exclusive|multi-year|technology|distribution|reseller|channel)\s+(?:partnership|alliance|agreement|contract|deal)\b/i,
      /\b(?:teams?|teamed)\s+up\s+with\b|\bjoins?\s+forces\s+with\b/i,
      /\b(?:signs?|signed|inks?|inked|wins?|won|awarded|secur(?:es?|ed)|lands?|landed|bags?|clinch(?:es|ed)?)\b[^.]{0,50}?\b(?:contract|tender|deal|order|agreement|mou|framework)\b/i,
      /\b(?:selected|chosen|picked)\s+by\b/i,
    ],
  },
  {
    kind: 'product_launch',
    patterns: [
      /\blaunch(?:es|ed|ing)?\b(?!\s+(?:an?\s+)?(?:investigation|probe|review|search|lawsuit|appeal|bid|offer)\b)/i,
      /\b(?:unveil(?:s|ed|ing)?|introduc(?:es|ed|ing)|debut(?:s|ed|ing)?|rolls?\s+out|rolled\s+out|rolling\s+out)\b/i,
      /\breleas(?:es|ed|ing)\b(?!\s+(?:its\s+|the\s+)?(?:q[1-4]|quarterly|annual|fiscal|financial|first|second|third|fourth|full[- ]year|half[- ]year|earnings|results)\b)/i,
      /\b(?:announc(?:es?|ed|ing)\s+(?:the\s+)?(?:general\s+)?availability|now\s+(?:generally\s+)?available|generally\s+available|goes\s+live|went\s+live|beta\s+(?:launch|release|program))\b/i,
      /\bnew\s+(?:product|platform|feature|features|app|version|service|model|solution|line)\b/i,
    ],
  },
];

/** The kind the headline names, else the one the lead names; null when neither names one (the article is dropped). */
export function classifyNews(headline: string, lead: string): NewsClassification | null {
  for (const text of [headline, lead]) {
    const kind = kindOf(text);
    if (!kind) continue;
    const show = kind === 'event_participation' ? (showOf(headline) ?? showOf(lead)) : null;
    return {
      kind,
      label: NEWS_EVENT_LABELS[kind],
      eventName: show?.name ?? '',
      eventLocation: show?.location ?? '',
    };
  }
  return null;
}

function kindOf(text: string): NewsEventType | null {
  if (!text.trim()) return null;
  for (const rule of NEWS_KIND_RULES) if (rule.patterns.some((pattern) => pattern.test(text))) return rule.kind;
  return null;
}

const SHOW_NAME =
  /\b[Aa]t\s+(?:the\s+)?((?:[A-Z0-9][\w&'’/:.+-]*)(?:\s+(?:[A-Z0-9][\w&'’/:.+-]*|of|on|for|and|&|de|du))*)/g;
const EVENT_NAMED = new RegExp(`\\b${EVENT_WORD}\\b|\\b20\\d\\d\\b`, 'i');

/**
 * The show a participation names: the capitalised words after "at", preferring the ones that
 * carry a show word (Expo, Summit, Messe…) or a year; its place is what follows "in" (or a comma).
 */
function showOf(text: string): { name: string; location: string } | null {
  const found = [...text.matchAll(SHOW_NAME)].map((match) => ({
    phrase: match[1]!,
    rest: text.slice(match.index + match[0].length),
  }));
  const chosen = found.find((candidate) => EVENT_NAMED.test(candidate.phrase)) ?? found[0];
  if (!chosen) return null;
  // Title-case headlines run the place into the name: "… At Hannover Messe 2027 In Hannover".
  const [name, placeInName] = chosen.phrase.split(/\s+(?:in|In|IN)\s+/, 2) as [string, string | undefined];
  const trailing = /^\s*(?:,\s*|\s+in\s+)((?:[A-Z][\w'’.-]*)(?:,?\s+[A-Z][\w'’.-]*){0,3})/.exec(chosen.rest)?.[1];
  return {
    name: name.replace(/\s+(?:of|on|for|and|&|de|du)$/, '').replace(/[.,:]+$/, ''),
    location: (placeInName ?? trailing ?? '').replace(/[.,:]+$/, ''),
  };
}
