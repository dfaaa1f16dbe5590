import { html, type SafeHtml } from './html';
import type { MemberSession } from '../../src/services/member-sessions';

export type Notice = { kind: 'ok' | 'error' | 'warn'; text: string } | undefined;

const NAV: Array<[href: string, label: string]> = [
  ['/', 'Overview'],
  ['/signals', 'Signals'],
  ['/suppressions', 'Suppressions'],
  ['/competitors', 'Competitors'],
  ['/scoring', 'Account score'],
  ['/api-keys', 'API keys'],
  ['/integrations', 'Integrations'],
  ['/assistants', 'Assistants'],
  ['/credits', 'Credits'],
  ['/team', 'Team'],
];

export interface PageOptions {
  title: string;
  /** The nav entry this page belongs to. */
  section?: string;
  session?: MemberSession;
  notice?: Notice;
  body: SafeHtml;
}

export function noticeBox(notice: Notice): SafeHtml {
  if (!notice) return html``;
  return html`<div class="notice ${notice.kind}" role="${notice.kind === 'error' ? 'alert' : 'status'}">
    ${notice.text}
  </div>`;
}

/** The hidden field every state-changing form carries. */
export const csrfField = (token: string) => html`<input type="hidden" name="_csrf" value="${token}" />`;

/** A one-button form that POSTs (every state change is a POST carrying the CSRF token). */
export function postButton(
  session: MemberSession,
  action: string,
  label: string,
  options: { confirm?: string; progress?: string; style?: 'secondary' | 'danger'; describedBy?: string } = {},
): SafeHtml {
  return html`<form
    class="inline"
    method="post"
    action="${action}"
    ${options.confirm ? html`data-confirm="${options.confirm}"` : ''}
    ${options.progress ? html`data-progress="${options.progress}"` : ''}
  >
    ${csrfField(session.csrfToken)}<button type="submit" class="${options.style ?? ''}">${label}</button>${
      options.progress ? html`<span class="visually-hidden" role="status"></span>` : ''
    }
  </form>`;
}

export function page(options: PageOptions): string {
  const { session } = options;
  const header = session
    ? html`<header class="top">
        <span class="brand">Intent leads</span>
        <nav class="main" aria-label="Main">
          ${NAV.map(
            ([href, label]) =>
              html`<a href="${href}" ${options.section === href ? html`aria-current="page"` : ''}>${label}</a>`,
          )}
        </nav>
        <span class="hint">${session.email}</span>
        ${postButton(session, '/sign-out', 'Sign out', { style: 'secondary' })}
      </header>`
    : html`<header class="top"><span class="brand">Intent leads</span></header>`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${options.title} · Intent leads</title>
        <link rel="stylesheet" href="/assets/dashboard.css" />
        <script src="/assets/dashboard.js" defer></script>
      </head>
      <body>
        ${header}
        <main id="main">
          <h1>${options.title}</h1>
          ${noticeBox(options.notice)} ${options.body}
        </main>
      </body>
    </html>`.text;
}
