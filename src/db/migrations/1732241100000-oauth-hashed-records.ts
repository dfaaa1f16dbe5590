import { MigrationInterface, QueryRunner } from 'typeorm';

/** The models whose id is a credential, as src/oauth/record-store.ts keeps them (fixed here as of this migration). */
const HASHED = [
  'AccessToken',
  'AuthorizationCode',
  'RefreshToken',
  'ClientCredentials',
  'RegistrationAccessToken',
  'InitialAccessToken',
  'PushedAuthorizationRequest',
];

/**
 * OAuth tokens and codes at rest: a record whose id is a credential is keyed by its SHA-256 and
 * keeps no copy of it in the payload. Existing rows are rehashed, so tokens already issued go
 * on working; registered clients that no one granted anything get the unused-client expiry.
 */
export class OAuthHashedRecords1732241100000 implements MigrationInterface {
  name = 'OAuthHashedRecords1732241100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(
      `UPDATE oauth_records SET id = encode(sha256(convert_to(id, 'UTF8')), 'hex'), payload = payload - 'jti'
       WHERE model = ANY($1)`,
      [HASHED],
    );
    await q.query(
      `UPDATE oauth_records c SET expires_at = now() + interval '1 day'
       WHERE c.model = 'Client' AND c.expires_at IS NULL
         AND NOT EXISTS (SELECT 1 FROM assistant_grants g WHERE g.client_id = c.id)`,
    );
  }

  async down(q: QueryRunner): Promise<void> {
    // A hash cannot be turned back into its token: those records go (assistants sign in again).
    await q.query(`DELETE FROM oauth_records WHERE model = ANY($1)`, [HASHED]);
  }
}
