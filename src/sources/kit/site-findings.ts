/**
 * What reading a company's own site finds for other sources to read: a job board, news feeds,
 * the company's Bluesky account.
 * The site's reader names no source; a source that reads such a finding takes it here when it
 * is made, so neither imports the other.
 */
export interface FoundBoard {
  companyId: string;
  ats: string;
  token: string;
}

export interface SiteFindingTaker {
  /** The board platforms this taker reads; a board elsewhere is not its finding. */
  boardPlatforms?: { has(ats: string): boolean };
  board?(found: FoundBoard): Promise<unknown>;
  feeds?(companyId: string, urls: readonly string[]): Promise<unknown>;
  /** The Bluesky handle or DID the homepage links, or null when it links none (any found before is gone). */
  blueskyAccount?(companyId: string, account: string | null): Promise<unknown>;
}

export class SiteFindings {
  private readonly takers: SiteFindingTaker[] = [];

  take(taker: SiteFindingTaker): void {
    this.takers.push(taker);
  }

  /** Whether some source reads boards of this platform (a site's profile keeps only those). */
  readsBoardsOf(ats: string): boolean {
    return this.takers.some((taker) => taker.boardPlatforms?.has(ats));
  }

  async board(found: FoundBoard): Promise<void> {
    for (const taker of this.takers) if (taker.board && taker.boardPlatforms?.has(found.ats)) await taker.board(found);
  }

  async feeds(companyId: string, urls: readonly string[]): Promise<void> {
    for (const taker of this.takers) if (taker.feeds) await taker.feeds(companyId, urls);
  }

  async blueskyAccount(companyId: string, account: string | null): Promise<void> {
    for (const taker of this.takers) if (taker.blueskyAccount) await taker.blueskyAccount(companyId, account);
  }
}
