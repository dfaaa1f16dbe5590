import type { Context, Middleware } from 'koa';

/**
 * Scripts and styles only from our own /assets (no inline script, no CDN), no framing, no
 * referrer leaving the site, forms posting only to us.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

/** The dashboard's headers on one answer (the authorization server's error pages use them too). */
export function setDashboardHeaders(ctx: Pick<Context, 'set' | 'secure'>): void {
  ctx.set({
    'Content-Security-Policy': CONTENT_SECURITY_POLICY,
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), payment=()',
  });
  if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
}

export const dashboardHeaders: Middleware = async (ctx, next) => {
  setDashboardHeaders(ctx);
  await next();
  // Pages can show keys and secrets: never kept by the browser or a proxy.
  if (!ctx.path.startsWith('/assets/')) ctx.set('Cache-Control', 'no-store');
};
