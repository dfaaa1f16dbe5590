/**
 * What a hostile site serves (issue 31): pages, feeds and answers far past what a real one holds,
 * each in the documented shape its reader expects so only the size or nesting is hostile: HTML
 * (https://html.spec.whatwg.org/multipage/parsing.html), an RSS 2.0 channel
 * (https://www.rssboard.org/rss-specification) and a Greenhouse Job Board API answer, `{"jobs": [...]}`
 * (https://developers.greenhouse.io/job-board.html#list-jobs).
 */
export const hostile = {
  /** Hundreds of thousands of unclosed tags: htmlparser2's time grows with the square of them. */
  quadraticPage: (tags = 320_000) => `<html><head><title>Unclosed</title></head><body>${'<span>'.repeat(tags)}`,
  /**
   * Within the depth limit and the size cut, and as slow as such a page gets (most of a second):
   * each `</div>` searches the 500 open tags.
   */
  slowPage: (title: string) =>
    `<html><head><title>${title}</title></head><body>${'<span>'.repeat(500)}${'</div>'.repeat(170_000)}`,
  /** Empty elements by the hundred thousand in an RSS channel. */
  elementBomb: (elements: number) =>
    `<?xml version="1.0"?><rss version="2.0"><channel>${'<a/>'.repeat(elements)}</channel></rss>`,
  /** A board answer of arrays inside arrays. */
  nestedJson: (depth: number) => `{"jobs":${'['.repeat(depth)}${']'.repeat(depth)}}`,
};
