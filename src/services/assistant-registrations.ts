import {
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type { DataSource } from 'typeorm';

/** A registered assistant no person has let in by then is forgotten (it registers again when it needs to). */
export const UNUSED_CLIENT_TTL_SECONDS = 24 * 3600;
const WINDOW_SECONDS = 3600;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface RegistrationRules {
  NODE_ENV: string;
  RATE_LIMIT_STORE: 'memory' | 'postgres';
  ASSISTANT_REGISTRATIONS_PER_HOUR: number;
}

/** What is wrong with a registration, as RFC 7591 names it. */
export interface RegistrationProblem {
  error: 'invalid_redirect_uri' | 'invalid_client_metadata';
  description: string;
}

/**
 * Open dynamic client registration (RFC 7591), kept from being a free write to our database:
 * a budget of registrations per client address and hour (shared through PostgreSQL when
 * RATE_LIMIT_STORE=postgres), and in production only redirect URLs an assistant can really own.
 */
export class AssistantRegistrations {
  private limiter?: Promise<RateLimiterAbstract>;

  constructor(
    private readonly db: DataSource,
    private readonly rules: RegistrationRules,
  ) {}

  /** Counts a registration from `address`; answers the seconds to wait when its budget is spent, else null. */
  async admit(address: string): Promise<number | null> {
    try {
      await (await this.ready()).consume(address);
      return null;
    } catch (rejection) {
      if (rejection instanceof RateLimiterRes) return Math.max(1, Math.ceil(rejection.msBeforeNext / 1000));
      throw rejection;
    }
  }

  /**
   * In production: only `code` responses, and redirect URLs over https to a named host, or
   * http to this machine's loopback for a native app (`application_type: "native"`, RFC 8252
   * section 7.3); a web client's redirect over http could be read on the way. A wildcard host
   * is never one.
   */
  problemWith(
    field: 'redirect_uris' | 'response_types',
    value: unknown,
    client: { application_type?: unknown } = {},
  ): RegistrationProblem | null {
    if (this.rules.NODE_ENV !== 'production' || !Array.isArray(value)) return null;
    if (field === 'response_types') {
      const other = value.find((type) => String(type).trim() !== 'code');
      return other === undefined
        ? null
        : { error: 'invalid_client_metadata', description: `response_types may only be "code", not "${other}"` };
    }
    for (const uri of value) {
      const parsed = URL.parse(String(uri));
      if (!parsed) continue; // the provider's own checks name a malformed URL
      if (parsed.hostname.includes('*'))
        return { error: 'invalid_redirect_uri', description: `redirect_uris may not use a wildcard: ${uri}` };
      if (parsed.protocol === 'http:' && !LOOPBACK_HOSTS.has(parsed.hostname))
        return {
          error: 'invalid_redirect_uri',
          description: `redirect_uris over http must be loopback (127.0.0.1, [::1], localhost): ${uri}`,
        };
      if (parsed.protocol === 'http:' && client.application_type !== 'native')
        return {
          error: 'invalid_redirect_uri',
          description: `redirect_uris over http are for native apps only (register with application_type "native"); a web client's must be https: ${uri}`,
        };
    }
    return null;
  }

  private ready(): Promise<RateLimiterAbstract> {
    return (this.limiter ??= this.create());
  }

  private async create(): Promise<RateLimiterAbstract> {
    const options = {
      keyPrefix: 'oauth-registration',
      points: this.rules.ASSISTANT_REGISTRATIONS_PER_HOUR,
      duration: WINDOW_SECONDS,
    };
    if (this.rules.RATE_LIMIT_STORE === 'memory') return new RateLimiterMemory(options);
    const pool = (this.db.driver as unknown as { master: unknown }).master;
    return new Promise<RateLimiterPostgres>((resolve, reject) => {
      const created: RateLimiterPostgres = new RateLimiterPostgres(
        { ...options, storeClient: pool, storeType: 'pool', tableName: 'rate_limits' },
        (err?: Error) => (err ? reject(err) : resolve(created)),
      );
    });
  }
}
