/**
 * The reads section's reference: the least a Koa + pg handler can do to serve a leads page from
 * the same table, with no authentication, rate limit, validation or ownership check, and no
 * total count. Rows come back as pg parses them and Koa serialises the page, as a plain handler
 * would. Same pool size as the service's (10).
 */
import Koa from 'koa';
import { Pool } from 'pg';

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = new Koa();

app.use(async (ctx) => {
  const match = /^\/signals\/([^/]+)\/leads$/.exec(ctx.path);
  if (!match) {
    ctx.status = 404;
    return;
  }
  const signalId = match[1];
  const limit = Number(ctx.query.limit ?? 25);
  const offset = Number(ctx.query.offset ?? 0);
  const { rows } = await pool.query(
    `SELECT payload FROM leads WHERE signal_id = $1 ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3`,
    [signalId, limit, offset],
  );
  ctx.body = { signalId, limit, offset, leads: rows.map((row: { payload: unknown }) => row.payload) };
});

const server = app.listen(Number(process.env.PORT), '127.0.0.1', () => process.send?.({ ready: true }));
server.keepAliveTimeout = 65_000;
process.on('SIGTERM', () => {
  server.close();
  void pool.end().then(() => process.exit(0));
});
