/**
 * Documents as their specifications and the vendor document them, with only the values made
 * up: RSS 2.0 (RSS Advisory Board specification: channel title/link/description, item title,
 * link, description, pubDate in RFC 822, guid), Atom 1.0 (RFC 4287: feed id/title/updated,
 * entry id, title, link rel="alternate", updated, published, summary), the GDELT DOC 2.0 API's
 * `mode=artlist&format=json` answer (`articles[]` with url, url_mobile, title, seendate as
 * YYYYMMDDTHHMMSSZ, socialimage, domain, language, sourcecountry) and article web pages.
 */

export interface RssItem {
  title: string;
  link: string;
  description: string;
  pubDate: Date;
}

export function rssFeed(site: string, items: RssItem[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>${site} Newsroom</title>
    <link>https://${site}/news</link>
    <description>Press releases and announcements</description>
    <language>en-us</language>
    <atom:link href="https://${site}/feed.xml" rel="self" type="application/rss+xml" />
${items
  .map(
    (item) => `    <item>
      <title>${escapeXml(item.title)}</title>
      <link>${escapeXml(item.link)}</link>
      <description>${escapeXml(`<p>${item.description}</p>`)}</description>
      <pubDate>${item.pubDate.toUTCString()}</pubDate>
      <guid isPermaLink="true">${escapeXml(item.link)}</guid>
    </item>`,
  )
  .join('\n')}
  </channel>
</rss>`;
}

export interface AtomEntry {
  title: string;
  href: string;
  summary: string;
  published: Date;
}

export function atomFeed(site: string, entries: AtomEntry[]): string {
  return `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>${site} Blog</title>
  <link href="https://${site}/blog/"/>
  <link rel="self" href="https://${site}/blog/atom.xml"/>
  <updated>${entries[0]?.published.toISOString() ?? new Date().toISOString()}</updated>
  <id>urn:uuid:60a76c80-d399-11d9-b93C-0003939e0af6</id>
  <author><name>${site}</name></author>
${entries
  .map(
    (entry, i) => `  <entry>
    <title type="html">${escapeXml(entry.title)}</title>
    <link rel="alternate" type="text/html" href="${escapeXml(entry.href)}"/>
    <link rel="replies" type="application/atom+xml" href="https://${site}/blog/comments/${i}.xml"/>
    <id>urn:uuid:1225c695-cfb8-4ebb-aaaa-80da344efa6${i}</id>
    <updated>${entry.published.toISOString()}</updated>
    <published>${entry.published.toISOString()}</published>
    <summary type="text">${escapeXml(entry.summary)}</summary>
  </entry>`,
  )
  .join('\n')}
</feed>`;
}

export interface GdeltItem {
  url: string;
  title: string;
  seen: Date;
  domain: string;
}

export function gdeltArtlist(items: GdeltItem[]): unknown {
  if (items.length === 0) return {};
  return {
    articles: items.map((item) => ({
      url: item.url,
      url_mobile: '',
      title: item.title,
      seendate: item.seen
        .toISOString()
        .replace(/[-:]/g, '')
        .replace(/\.\d{3}/, ''),
      socialimage: `https://${item.domain}/images/social.jpg`,
      domain: item.domain,
      language: 'English',
      sourcecountry: 'United States',
    })),
  };
}

/** An article page as publishers serve it: head meta, site chrome, the story in paragraphs. */
export function articlePage(options: {
  site: string;
  headline: string;
  paragraphs: string[];
  published?: Date;
  description?: string;
}): string {
  const { site, headline, paragraphs } = options;
  return `<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>${escapeXml(headline)} | ${site}</title>
  <meta name="description" content="${escapeXml(options.description ?? paragraphs[0] ?? '')}">
  <meta property="og:title" content="${escapeXml(headline)}">
  ${options.published ? `<meta property="article:published_time" content="${options.published.toISOString()}">` : ''}
  <script>window.dataLayer = [{"company": "Not the story"}];</script>
  <style>.story { font-family: serif; }</style>
</head>
<body>
  <header><nav><a href="/">Home</a> <a href="/business">Business</a><p>Subscribe to our newsletter</p></nav></header>
  <main>
    <article class="story">
      <h1>${escapeXml(headline)}</h1>
      ${paragraphs.map((p) => `<p>${escapeXml(p)}</p>`).join('\n      ')}
    </article>
  </main>
  <footer><p>&copy; 2026 ${site}. All rights reserved.</p></footer>
</body>
</html>`;
}

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
