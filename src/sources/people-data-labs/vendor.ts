/**
 * A people-data vendor that says, release by release, which of its people changed, and
 * answers one person's current record: the job-change source (people-data-changes.ts
 * beside this file) diffs that record's employer and title with what the store knew.
 * People Data Labs is one file of this shape; Coresignal or TAMradar would be one more.
 */

export interface VendorRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: string;
}

export interface VendorReply {
  status: number;
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

/** How a vendor's requests are sent: by the source, paced and time-limited, hosts mapped in tests. */
export type VendorHttp = (request: VendorRequest) => Promise<VendorReply>;

/** What a vendor answered: the thing asked, or it asks us to wait (429), or a problem worded for the operator. */
export type VendorAnswer<T> =
  { ok: T } | { throttled: { retryAfterMs: number; message: string } } | { problem: string; notFound?: boolean };

/** A person the vendor lists as changed between two releases. */
export interface PersonChange {
  vendorId: string;
  kind: 'updated' | 'opted_out';
  /** The top-level fields that changed (an `updated` change); empty when the vendor does not say. */
  fieldsUpdated: string[];
}

export interface ChangesPage {
  changes: PersonChange[];
  /** The next page's token; null on the last page. */
  next: string | null;
}

/** One person as the vendor has them now, in the store's words; fields the vendor does not license are null. */
export interface VendorPerson {
  vendorId: string;
  firstName: string | null;
  lastName: string | null;
  title: string | null;
  companyName: string | null;
  companyDomain: string | null;
  companyLinkedinUrl: string | null;
  companyIndustry: string | null;
  /** The month the current job started, "YYYY-MM". */
  startedOn: string | null;
  email: string | null;
  phone: string | null;
  linkedinUrl: string | null;
  location: string | null;
  city: string | null;
  countryCode: string | null;
}

export interface PeopleDataVendor {
  /** The source's name (docs/sources.md). */
  readonly source: string;
  /** What the ids of its events and people start with ("pdl": event `pdl:<vendor id>:<release>`). */
  readonly idPrefix: string;
  /** The host every request goes to: paced and held off as one. */
  readonly host: string;
  /** Vendor ids a changes request may name at most. */
  readonly idsPerRequest: number;
  /** The release before `release`, the one a change list compares it with; null for a release it cannot read. */
  previousRelease(release: string): string | null;
  /** Whether a change of these fields may be a new employer or title (other changes need no lookup). */
  mayBeJobChange(fieldsUpdated: readonly string[]): boolean;
  /** One page of the people of `ids` that changed (or opted out) between two releases. */
  changes(query: {
    from: string;
    to: string;
    kind: PersonChange['kind'];
    ids: readonly string[];
    page: string | null;
  }): Promise<VendorAnswer<ChangesPage>>;
  /** One person's current record, and whether the vendor charged a credit for it. */
  person(vendorId: string): Promise<VendorAnswer<{ person: VendorPerson; billed: boolean }>>;
}
